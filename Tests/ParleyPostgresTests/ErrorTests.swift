import ParleyPostgres
import Testing

@Suite(.timeLimit(.minutes(10))) struct ErrorTests {
    @Test func uniqueViolationCarriesSQLStateDetailAndConstraint() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let table = TestDatabase.uniqueName("uniq")
        try await pool.query(
            "CREATE TABLE \(identifier: table) (id int CONSTRAINT \(identifier: table + "_pk") PRIMARY KEY)")
        try await pool.query("INSERT INTO \(identifier: table) VALUES (\(1))")
        let error = await #expect(throws: PostgresError.self) {
            try await pool.query("INSERT INTO \(identifier: table) VALUES (\(1))")
        }
        #expect(error?.kind == .uniqueViolation)
        #expect(error?.sqlState == "23505")
        #expect(error?.constraint == table + "_pk")
        #expect(error?.detail?.contains("(id)=(1)") == true)
        #expect(error?.query?.contains("$1") == true)
        #expect(error?.description.contains("(id)=(1)") == false, "a log line must not quote the row: \(error!)")
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    @Test func aDataExceptionLogsWithoutTheValueItRefused() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let error = await #expect(throws: PostgresError.self) {
            try await pool.query("SELECT \("ada@example.com")::int")
        }
        #expect(error?.sqlState == "22P02")
        #expect(error?.message.contains("ada@example.com") == true, "code can still read the message")
        let logged = error.map { "\($0)" } ?? ""
        #expect(!logged.contains("ada@example.com") && logged.contains("integer"), "\(logged)")
    }

    @Test func foreignKeyAndCheckViolationsAreDistinguishable() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let parent = TestDatabase.uniqueName("parent")
        let child = TestDatabase.uniqueName("child")
        try await pool.query("CREATE TABLE \(identifier: parent) (id int PRIMARY KEY)")
        try await pool.query(
            """
            CREATE TABLE \(identifier: child) (parent int REFERENCES \(identifier: parent) (id),
                n int CHECK (n > 0), s text NOT NULL DEFAULT 'x')
            """)
        let foreignKey = await #expect(throws: PostgresError.self) {
            try await pool.query("INSERT INTO \(identifier: child) (parent, n) VALUES (\(99), \(1))")
        }
        #expect(foreignKey?.kind == .foreignKeyViolation)
        #expect(foreignKey?.sqlState == "23503")
        let check = await #expect(throws: PostgresError.self) {
            try await pool.query("INSERT INTO \(identifier: child) (n) VALUES (\(-1))")
        }
        #expect(check?.kind == .checkViolation)
        let notNull = await #expect(throws: PostgresError.self) {
            try await pool.query("INSERT INTO \(identifier: child) (n, s) VALUES (\(1), \(String?.none))")
        }
        #expect(notNull?.kind == .notNullViolation)
        let syntax = await #expect(throws: PostgresError.self) { try await pool.query("SELEC 1") }
        #expect(syntax?.kind == .syntax)
        #expect(syntax?.sqlState == "42601")
        try await pool.query("DROP TABLE \(identifier: child), \(identifier: parent)")
    }

    @Test func serializationFailureIsTyped() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let table = try await CounterTable.make(on: pool)
        let error = await #expect(throws: PostgresError.self) {
            try await pool.withTransaction(isolation: .repeatableRead) { connection in
                _ = try await connection.query("SELECT n FROM \(identifier: table) WHERE id = 1")
                try await pool.query("UPDATE \(identifier: table) SET n = n + 1 WHERE id = 1")  // another connection
                try await connection.query("UPDATE \(identifier: table) SET n = n + 10 WHERE id = 1")
            }
        }
        #expect(error?.kind == .serializationFailure)
        #expect(error?.sqlState == "40001")
        #expect(error?.isTransient == true)
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    @Test func aKilledBackendIsConnectionLost() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let error = await #expect(throws: PostgresError.self) {
            try await pool.query("SELECT pg_terminate_backend(pg_backend_pid())")
        }
        #expect(error?.kind == .connectionLost)
        let after = try await pool.query("SELECT 1 AS one")
        #expect(try after[0].decode(Int.self, column: "one") == 1, "the next use gets a fresh connection")
    }

    @Test func anUnreachableServerIsConnectionFailed() async throws {
        var configuration = PostgresConfiguration(url: "postgres://postgres@127.0.0.1:1/parley")
        configuration.connectTimeout = .seconds(2)
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        let error = await #expect(throws: PostgresError.self) { try await pool.query("SELECT 1") }
        #expect(error?.kind == .connectionFailed)
        #expect(error?.message.contains("127.0.0.1") == true)
        #expect(pool.statistics.open == 0, "a failed connect gives its slot back")
    }

    @Test func aMissingURLIsAConfigurationError() {
        let error = #expect(throws: PostgresError.self) { try PostgresConfiguration.fromEnvironment([:]) }
        #expect(error?.kind == .configuration)
        #expect(error?.message.contains("PARLEY_DATABASE_URL") == true)
    }
}

/// A one-row table `(id int primary key, n int)` with row `(1, 0)`.
enum CounterTable {
    static func make(on pool: PostgresPool) async throws -> String {
        let table = TestDatabase.uniqueName("counter")
        try await pool.query("CREATE TABLE \(identifier: table) (id int PRIMARY KEY, n int NOT NULL)")
        try await pool.query("INSERT INTO \(identifier: table) VALUES (1, 0)")
        return table
    }
}
