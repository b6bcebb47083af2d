import ParleyPostgres
import Testing

@Suite(.timeLimit(.minutes(10))) struct InjectionTests {
    static let attacks = [
        "'; DROP TABLE victims; --", "' OR '1'='1", "\\'; DELETE FROM victims; --", "$1", "$$; DROP TABLE victims; $$",
        "\"; DROP TABLE victims; --", "victims'); DROP TABLE victims;--", "1; SELECT pg_sleep(10)", "\u{0}",
    ]

    @Test func injectionAttemptsStayValues() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let table = TestDatabase.uniqueName("victims")
        try await pool.query("CREATE TABLE \(identifier: table) (name text)")
        for attack in Self.attacks where !attack.contains("\u{0}") {
            try await pool.query("INSERT INTO \(identifier: table) (name) VALUES (\(attack))")
            let matched = try await pool.query("SELECT name FROM \(identifier: table) WHERE name = \(attack)")
            #expect(matched.count == 1, "the attack string is matched as a value, exactly once")
            #expect(try matched[0].decode(String.self, column: "name") == attack)
        }
        let count = try await pool.query("SELECT count(*) AS n FROM \(identifier: table)")
        #expect(try count[0].decode(Int.self, column: "n") == Self.attacks.count - 1)
        let noMatch = try await pool.query("SELECT * FROM \(identifier: table) WHERE name = \("' OR 1=1 --")")
        #expect(noMatch.isEmpty)
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    @Test func aNulByteIsRefusedNotTruncated() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let error = await #expect(throws: PostgresError.self) { try await pool.query("SELECT \("a\u{0}b") AS v") }
        #expect(error?.sqlState == "22021", "Postgres refuses NUL in text rather than cutting the value")
    }

    @Test func identifiersAreQuoted() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let table = "weird \"name\"; DROP TABLE x; --" + TestDatabase.uniqueName("")
        try await pool.query("CREATE TABLE \(identifier: table) (v int)")
        let rows = try await pool.query("SELECT count(*) AS n FROM pg_tables WHERE tablename = \(table)")
        #expect(try rows[0].decode(Int.self, column: "n") == 1)
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    @Test func descriptionRedactsBoundValues() {
        let secret = "hunter2"
        let query: PostgresQuery = "SELECT * FROM api_tokens WHERE token = \(secret) AND n = \(5)"
        #expect(query.sql == "SELECT * FROM api_tokens WHERE token = $1 AND n = $2")
        #expect(!query.description.contains(secret))
        #expect(query.description.contains("2 bound values redacted"))
        #expect(query.binds.count == 2)
    }

    /// Placeholders come from a table up to $127 and are formatted past it: both read the same.
    @Test func placeholdersNumberEveryBindPastTheTable() {
        var interpolation = PostgresQuery.StringInterpolation(literalCapacity: 0, interpolationCount: 130)
        for index in 0..<130 {
            if index > 0 { interpolation.appendLiteral(",") }
            interpolation.appendInterpolation(index)
        }
        let query = PostgresQuery(stringInterpolation: interpolation)
        #expect(query.sql == (1...130).map { "$\($0)" }.joined(separator: ","))
        #expect(query.binds.count == 130)
    }
}
