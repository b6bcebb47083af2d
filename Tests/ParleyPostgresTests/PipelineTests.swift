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

    /// A sync point splits a pipeline in two implicit transactions: a failure in the first rolls
    /// back only the first and skips only the rest of it; the second runs and commits.
    @Test func aSyncPointEndsTheFirstSegmentsTransaction() async throws {
        let table = TestDatabase.uniqueName("pipeline_sync")
        let connection = try await PostgresConnection.connect(configuration: try TestDatabase.configuration())
        defer { connection.close() }
        try await connection.query("CREATE TABLE \(identifier: table) (id integer PRIMARY KEY)")
        let committed = try await connection.pipeline(
            [
                "INSERT INTO \(identifier: table) VALUES (1), (2) RETURNING id, txid_current() AS txid",
                "SELECT txid_current() AS txid",
            ], syncAfter: 1)
        let inserted = try committed[0].get()
        #expect(try inserted.map { try $0.decode(Int.self, column: "id") } == [1, 2], "the statement's own rows")
        #expect(
            try inserted[0].decode(Int64.self, column: "txid")
                != committed[1].get()[0].decode(Int64.self, column: "txid"),
            "each segment is a transaction of its own")
        #expect(!connection.isInTransaction, "the sync points committed both")

        let failed = try await connection.pipeline(
            [
                "INSERT INTO \(identifier: table) VALUES (3)", "INSERT INTO \(identifier: table) VALUES (1)",
                "INSERT INTO \(identifier: table) VALUES (4)",
                "INSERT INTO \(identifier: table) VALUES (5) RETURNING id",
            ], syncAfter: 3)
        #expect((try? failed[0].get()) != nil)
        let duplicate = #expect(throws: PostgresError.self) { try failed[1].get() }
        #expect(duplicate?.kind == .uniqueViolation)
        #expect(throws: PostgresError.self, "skipped up to the sync point") { try failed[2].get() }
        #expect(try failed[3].get()[0].decode(Int.self, column: "id") == 5, "the second segment ran")
        #expect(!connection.isInTransaction)
        let stored = try await connection.query("SELECT id FROM \(identifier: table) ORDER BY id")
        #expect(try stored.map { try $0.decode(Int.self, column: "id") } == [1, 2, 5], "3 was rolled back with 1")
        try await connection.query("DROP TABLE \(identifier: table)")
    }

    /// A commit that fails at the sync point (a deferred constraint; libpq reports it after the
    /// segment's last statement) fails that segment's statements, even the one whose rows had
    /// arrived, and nothing of the next segment.
    @Test func aCommitFailingAtTheSyncPointFailsItsSegment() async throws {
        let table = TestDatabase.uniqueName("pipeline_sync")
        let connection = try await PostgresConnection.connect(configuration: try TestDatabase.configuration())
        defer { connection.close() }
        try await connection.query(
            "CREATE TABLE \(identifier: table) (id integer, UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)")
        for syncAfter in [1, 2] {
            let outcomes = try await connection.pipeline(
                [
                    "SELECT 1 AS n", "INSERT INTO \(identifier: table) VALUES (1), (1) RETURNING id",
                    "SELECT 2 AS n",
                ], syncAfter: syncAfter)
            #expect(outcomes.count == 3)
            if syncAfter == 1 {
                #expect(try outcomes[0].get()[0].decode(Int.self, column: "n") == 1, "its own transaction")
                // One segment to the end: the statement after the insert fails with it.
                #expect(throws: PostgresError.self) { try outcomes[2].get() }
            } else {
                #expect(throws: PostgresError.self, "rolled back with the insert") { try outcomes[0].get() }
                #expect(try outcomes[2].get()[0].decode(Int.self, column: "n") == 2, "the next segment ran")
            }
            let failure = #expect(throws: PostgresError.self) { try outcomes[1].get() }
            #expect(failure?.kind == .uniqueViolation)
            #expect(!connection.isInTransaction)
        }
        let count = try await connection.query("SELECT count(*) AS n FROM \(identifier: table)")
        #expect(try count[0].decode(Int.self, column: "n") == 0)
        try await connection.query("DROP TABLE \(identifier: table)")
    }

    /// Statements from `rowsKept` on report whether they failed and no rows; a commit failing at
    /// their sync point still fails those after the segment's explicit `COMMIT`, not the ones
    /// before it.
    @Test func statementsPastRowsKeptReportOnlyTheirOutcome() async throws {
        let table = TestDatabase.uniqueName("pipeline_rows")
        let connection = try await PostgresConnection.connect(configuration: try TestDatabase.configuration())
        defer { connection.close() }
        try await connection.query(
            "CREATE TABLE \(identifier: table) (id integer, UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)")
        let plain = try await connection.pipeline(
            ["SELECT 1 AS n", "SELECT 2 AS n", "SELECT 3 AS n"], syncAfter: 1, rowsKept: 1)
        #expect(try plain[0].get()[0].decode(Int.self, column: "n") == 1)
        #expect(try plain[1].get().count == 0 && plain[2].get().count == 0, "rows not kept")

        let failing = try await connection.pipeline(
            ["SELECT 1 AS n", "SELECT 1 / 0 AS n", "SELECT 3 AS n"], syncAfter: 1, rowsKept: 1)
        #expect(try failing[0].get().count == 1)
        #expect(throws: PostgresError.self) { try failing[1].get() }
        #expect(throws: PostgresError.self, "skipped up to the sync point") { try failing[2].get() }

        let committing = try await connection.pipeline(
            [
                "SELECT 1 AS n", "BEGIN", "INSERT INTO \(identifier: table) VALUES (5)", "COMMIT",
                "INSERT INTO \(identifier: table) VALUES (1), (1)",
            ], syncAfter: 1, rowsKept: 1)
        for index in 1...3 { #expect((try? committing[index].get()) != nil, "statement \(index) stands") }
        let failure = #expect(throws: PostgresError.self) { try committing[4].get() }
        #expect(failure?.kind == .uniqueViolation)
        #expect(!connection.isInTransaction)
        let stored = try await connection.query("SELECT id FROM \(identifier: table) ORDER BY id")
        #expect(try stored.map { try $0.decode(Int.self, column: "id") } == [5])
        try await connection.query("DROP TABLE \(identifier: table)")
    }
}
