import Testing

@testable import ParleyPostgres

/// Each connection prepares the statements it runs, up to its limit (issue 15, "Writes"): parsed
/// and planned once, not at every run. A statement that cannot be prepared fails with its own
/// error and is not remembered; one the server dropped is prepared again.
@Suite(.timeLimit(.minutes(10))) struct PreparedStatementTests {
    /// The statements prepared on `connection`, as Postgres lists them.
    func prepared(on connection: PostgresConnection) async throws -> [String] {
        let rows = try await connection.query("SELECT statement FROM pg_prepared_statements ORDER BY prepare_time")
        return try rows.map { try $0.decode(String.self, column: "statement") }
    }

    @Test func aStatementIsPreparedOnceAndRunAgainWithOtherValues() async throws {
        let pool = try TestDatabase.pool(maximumConnections: 1)
        defer { pool.shutdown() }
        try await pool.withConnection { connection in
            for value in 1...3 {
                let rows = try await connection.query("SELECT \(value)::int8 + 1 AS next")
                #expect(try rows[0].decode(Int.self, column: "next") == value + 1)
            }
            let statements = try await prepared(on: connection)
            #expect(statements.filter { $0 == "SELECT $1::int8 + 1 AS next" }.count == 1, "\(statements)")
            // Pipelines prepare too, and reuse what single statements prepared.
            let outcomes = try await connection.pipeline(["SELECT \(7)::int8 + 1 AS next", "SELECT \("x") AS word"])
            #expect(try outcomes[0].get()[0].decode(Int.self, column: "next") == 8)
            #expect(try outcomes[1].get()[0].decode(String.self, column: "word") == "x")
            #expect(try await prepared(on: connection).count == statements.count + 1)
        }
    }

    @Test func aStatementThatCannotBePreparedFailsWithItsOwnErrorEveryTime() async throws {
        let pool = try TestDatabase.pool(maximumConnections: 1)
        defer { pool.shutdown() }
        try await pool.withConnection { connection in
            for _ in 0..<2 {
                let error = await #expect(throws: PostgresError.self) {
                    try await connection.query("SELECT * FROM no_such_table_here WHERE id = \(1)")
                }
                #expect(
                    error?.sqlState == "42P01",
                    "the Parse's own error, not a skipped statement: \(String(describing: error))")
            }
            // In a pipeline, the statements after it are skipped as before, and the next pipeline runs.
            let outcomes = try await connection.pipeline(["SELECT missing_column FROM pg_class", "SELECT 1 AS one"])
            #expect((try? outcomes[0].get()) == nil && (try? outcomes[1].get()) == nil)
            #expect(try await connection.query("SELECT 2 AS two")[0].decode(Int.self, column: "two") == 2)
        }
    }

    @Test func aStatementTheServerDroppedIsPreparedAgain() async throws {
        let pool = try TestDatabase.pool(maximumConnections: 1)
        defer { pool.shutdown() }
        try await pool.withConnection { connection in
            let query: PostgresQuery = "SELECT \(41)::int8 + 1 AS answer"
            _ = try await connection.query(query)
            try await connection.execute(unsafeScript: "DEALLOCATE ALL")
            // The first run after it learns the statement is gone (26000) and forgets it…
            let error = await #expect(throws: PostgresError.self) { try await connection.query(query) }
            #expect(error?.sqlState == "26000")
            // …so the next prepares it again.
            #expect(try await connection.query(query)[0].decode(Int.self, column: "answer") == 42)
        }
    }

    @Test func withALimitOfZeroNothingIsPrepared() async throws {
        var configuration = try TestDatabase.configuration(maximumConnections: 1)
        configuration.maximumPreparedStatements = 0
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        try await pool.withConnection { connection in
            for value in 1...3 { _ = try await connection.query("SELECT \(value)::int8 AS v") }
            #expect(try await prepared(on: connection).isEmpty)
        }
    }

    /// Keys hash only the ends of long statements: two that differ only in the middle are still
    /// two prepared statements, each answering its own rows.
    @Test func longStatementsThatDifferOnlyInTheMiddleArePreparedApart() async throws {
        let pool = try TestDatabase.pool(maximumConnections: 1)
        defer { pool.shutdown() }
        let padding = String(repeating: " ", count: 200)
        try await pool.withConnection { connection in
            for word in ["first", "second", "first"] {
                let sql = "SELECT /*\(padding)*/ length('\(word)')::int8 AS n /*\(padding)*/"
                let rows = try await connection.query(PostgresQuery(unsafeSQL: sql))
                #expect(try rows[0].decode(Int.self, column: "n") == word.count)
            }
            let statements = try await prepared(on: connection)
            #expect(statements.filter { $0.contains("length('first')") }.count == 1, "\(statements)")
            #expect(statements.filter { $0.contains("length('second')") }.count == 1, "\(statements)")
        }
        var plans = PreparedStatements()
        let first = plans.plan(PostgresQuery(unsafeSQL: "SELECT 1 \(padding)a\(padding)"), limit: 10)
        let second = plans.plan(PostgresQuery(unsafeSQL: "SELECT 1 \(padding)b\(padding)"), limit: 10)
        #expect(first.prepare && second.prepare && first.name != second.name)
        #expect(plans.plan(PostgresQuery(unsafeSQL: "SELECT 1 \(padding)a\(padding)"), limit: 10).name == first.name)
    }
}
