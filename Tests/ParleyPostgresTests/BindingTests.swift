import Foundation
import ParleyPostgres
import Testing

@Suite(.timeLimit(.minutes(10))) struct BindingTests {
    /// Binds `value`, selects it back and decodes it as the same type.
    func roundTrip<T: PostgresEncodable & PostgresDecodable & Equatable>(_ value: T, on pool: PostgresPool) async throws
    {
        let rows = try await pool.query("SELECT \(value) AS v")
        #expect(rows.count == 1)
        #expect(try rows[0].decode(T.self, column: "v") == value, "round trip of \(T.self)")
    }

    @Test func everySupportedTypeRoundTrips() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        for value in ["", "plain", "it's \"quoted\" \\ back\\slash", "Ünïcödé 日本語 🇨🇭 👩‍👩‍👧", "a\u{0308}", "\u{202E}rtl"] {
            try await roundTrip(value, on: pool)
        }
        for value in [0, 1, -1, Int.max, Int.min] { try await roundTrip(value, on: pool) }
        for value in [Int32.max, Int32.min, 0] { try await roundTrip(value, on: pool) }
        for value in [Int64.max, Int64.min] { try await roundTrip(value, on: pool) }
        try await roundTrip(true, on: pool)
        try await roundTrip(false, on: pool)
        for value in [0.0, -1.5, 1e300, 0.1, Double.infinity, -Double.infinity] { try await roundTrip(value, on: pool) }
        try await roundTrip(Data(0...255), on: pool)
        try await roundTrip(Data(), on: pool)
        try await roundTrip(Data([0, 0, 39, 92, 0]), on: pool)
        try await roundTrip(UUID(), on: pool)
        try await roundTrip(["a", "b c", "", "quo\"te", "back\\slash", "NULL", "{x,y}", "é"], on: pool)
        try await roundTrip([String](), on: pool)
        try await roundTrip(Date(timeIntervalSince1970: 1_700_000_000.123456), on: pool)
        try await roundTrip(Date(timeIntervalSince1970: -1_000_000_000), on: pool)
    }

    @Test func typesArriveAsTheirPostgresTypes() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let row = try await pool.query(
            """
            SELECT pg_typeof(\("x"))::text AS s, pg_typeof(\(1))::text AS i, pg_typeof(\(Int32(1)))::text AS i4,
                   pg_typeof(\(true))::text AS b, pg_typeof(\(1.5))::text AS d, pg_typeof(\(Data([1])))::text AS y,
                   pg_typeof(\(Date()))::text AS t, pg_typeof(\(UUID()))::text AS u,
                   pg_typeof(\(PostgresJSONB("{}")))::text AS j, pg_typeof(\(["a"]))::text AS a
            """)[0]
        let expected = [
            "s": "text", "i": "bigint", "i4": "integer", "b": "boolean", "d": "double precision", "y": "bytea",
            "t": "timestamp with time zone", "u": "uuid", "j": "jsonb", "a": "text[]",
        ]
        for (column, type) in expected { #expect(try row.decode(String.self, column: column) == type) }
    }

    @Test func nullsBindAndDecodeForEveryType() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let row = try await pool.query(
            """
            SELECT \(String?.none) AS s, \(Int?.none) AS i, \(Bool?.none) AS b, \(Double?.none) AS d,
                   \(Data?.none) AS y, \(Date?.none) AS t, \(UUID?.none) AS u, \(PostgresJSONB?.none) AS j,
                   \(Int32?.none) AS i4, pg_typeof(\(Data?.none))::text AS ytype
            """)[0]
        #expect(try row.decode(String?.self, column: "s") == nil)
        #expect(try row.decode(Int?.self, column: "i") == nil)
        #expect(try row.decode(Bool?.self, column: "b") == nil)
        #expect(try row.decode(Double?.self, column: "d") == nil)
        #expect(try row.decode(Data?.self, column: "y") == nil)
        #expect(try row.decode(Date?.self, column: "t") == nil)
        #expect(try row.decode(UUID?.self, column: "u") == nil)
        #expect(try row.decode(PostgresJSONB?.self, column: "j") == nil)
        #expect(try row.decode(Int32?.self, column: "i4") == nil)
        #expect(try row.decode(String.self, column: "ytype") == "bytea", "a typed NULL keeps its type")
        #expect(try row.decode(String?.self, column: "s") == nil)
        #expect(row.isNull(at: 0))
        let some = try await pool.query("SELECT \(Optional("x")) AS s")[0]
        #expect(try some.decode(String?.self, column: "s") == "x")
    }

    @Test func valuesSurviveAStoreAndLoadThroughEveryColumnType() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let table = TestDatabase.uniqueName("binding")
        try await pool.query(
            """
            CREATE TABLE \(identifier: table) (s text, v varchar(50), i bigint, i4 integer, b bool, d float8,
                y bytea, t timestamptz, u uuid, j jsonb, a text[])
            """)
        let id = UUID()
        let json = PostgresJSONB(#"{"name": "Zoë 🎉", "n": 1.50, "list": [1, null]}"#)
        let when = Date(timeIntervalSince1970: 1_234_567_890.5)
        try await pool.query(
            """
            INSERT INTO \(identifier: table) VALUES (\("Grüße"), \("ascii"), \(42), \(7), \(true), \(2.5),
                \(Data([0, 255, 10])), \(when), \(id), \(json), \(["x", "y z"]))
            """)
        let row = try await pool.query("SELECT * FROM \(identifier: table)")[0]
        #expect(try row.decode(String.self, column: "s") == "Grüße")
        #expect(try row.decode(String.self, column: "v") == "ascii")
        #expect(try row.decode(Int.self, column: "i") == 42)
        #expect(try row.decode(Int.self, column: "i4") == 7)
        #expect(try row.decode(Bool.self, column: "b"))
        #expect(try row.decode(Double.self, column: "d") == 2.5)
        #expect(try row.decode(Data.self, column: "y") == Data([0, 255, 10]))
        #expect(try row.decode(Date.self, column: "t") == when)
        #expect(try row.decode(UUID.self, column: "u") == id)
        #expect(
            try row.decode(PostgresJSONB.self, column: "j").text == #"{"n": 1.50, "list": [1, null], "name": "Zoë 🎉"}"#)
        #expect(try row.decode([String].self, column: "a") == ["x", "y z"])
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    @Test func decodingErrorsNameTheColumn() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let row = try await pool.query("SELECT 'abc'::text AS word, NULL::int AS nothing")[0]
        let notInteger = #expect(throws: PostgresError.self) { try row.decode(Int.self, column: "word") }
        #expect(notInteger?.kind == .decoding)
        #expect(notInteger?.message.contains("\"word\"") == true)
        let null = #expect(throws: PostgresError.self) { try row.decode(Int.self, column: "nothing") }
        #expect(null?.message.contains("\"nothing\" is NULL") == true)
        let missing = #expect(throws: PostgresError.self) { try row.decode(Int.self, column: "absent") }
        #expect(missing?.message.contains("no column \"absent\"") == true)
    }
}
