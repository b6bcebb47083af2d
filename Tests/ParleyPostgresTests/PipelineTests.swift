import Testing

@testable import ParleyPostgres

/// libpq pipeline mode on the non-blocking connection: many statements, one round trip.
@Suite(.timeLimit(.minutes(10))) struct PipelineTests {
    @Test func everyStatementGetsItsOwnRowsInOrder() async throws {
        let connection = try await PostgresConnection.connect(configuration: try TestDatabase.configuration())
        defer { connection.close() }
        let outcomes = try await connection.pipeline([
            "BEGIN", "SELECT 1 AS n", "SELECT txid_current() AS txid", "SELECT \(41) + 1 AS n", "COMMIT",
        ])
        #expect(outcomes.count == 5)
        let rows = try outcomes.map { try $0.get() }
        #expect(try rows[1][0].decode(Int.self, column: "n") == 1)
        #expect(try rows[3][0].decode(Int.self, column: "n") == 42)
        #expect(rows[4].commandTag == "COMMIT")
        let after = try await connection.query("SELECT 7 AS n")
        #expect(try after[0].decode(Int.self, column: "n") == 7, "the connection left pipeline mode")
    }

    @Test func aFailureSkipsTheRestAndLeavesTheConnectionUsable() async throws {
        let connection = try await PostgresConnection.connect(configuration: try TestDatabase.configuration())
        defer { connection.close() }
        let outcomes = try await connection.pipeline(["BEGIN", "SELECT 1/0", "SELECT 2", "COMMIT"])
        #expect(outcomes.count == 4)
        #expect((try? outcomes[0].get()) != nil)
        #expect(throws: PostgresError.self) { try outcomes[1].get() }
        #expect(throws: PostgresError.self) { try outcomes[2].get() }
        #expect(throws: PostgresError.self) { try outcomes[3].get() }
        #expect(connection.isInTransaction, "the explicit transaction is open and aborted until ROLLBACK")
        try await connection.query("ROLLBACK")
        for round in 0..<3 {
            let again = try await connection.pipeline(["SELECT \(round) AS n"])
            #expect(try again[0].get()[0].decode(Int.self, column: "n") == round)
        }
    }

    @Test func aPipelineLargerThanTheSocketBuffersCompletes() async throws {
        // Megabytes each way: the server answers while we still send, so both sides' buffers
        // fill; the connection must read while it writes, and still notice results read early.
        let connection = try await PostgresConnection.connect(configuration: try TestDatabase.configuration())
        defer { connection.close() }
        let text = String(repeating: "x", count: 2000)
        let statements = (0..<3000).map { index -> PostgresQuery in "SELECT \(index) AS i, \(text)::text AS t" }
        let outcomes = try await connection.pipeline(statements)
        #expect(outcomes.count == 3000)
        #expect(try outcomes[2999].get()[0].decode(Int.self, column: "i") == 2999)
        #expect(try outcomes[1500].get()[0].decode(String.self, column: "t") == text)
    }
}
