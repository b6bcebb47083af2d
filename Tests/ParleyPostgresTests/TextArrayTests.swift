import ParleyPostgres
import Testing

@Suite(.timeLimit(.minutes(10))) struct TextArrayTests {
    /// What Postgres reads from an array written element by element: the same texts, numbers as
    /// their digits, whole milliseconds as the very same `float8`, and an unused array as empty.
    @Test func elementsArriveAsWritten() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        var texts = PostgresTextArray()
        for text in ["", "plain", "quo\"te", "back\\slash", "NULL", "{x,y}", "Ünïcödé 🇨🇭"] { texts.append(text) }
        var numbers = PostgresTextArray(capacity: 0)
        for number in [0, 7, -42, 1_234_567, Int.max, Int.min] { numbers.append(number) }
        var instants = PostgresTextArray()
        let seconds = [1_764_080_000.123, 1_764_080_000.0, 0.001, -1.5, 1_764_080_000.123456, 0.1 + 0.2]
        for instant in seconds { instants.append(seconds: instant) }
        #expect(texts.elementCount == 7)
        let rows = try await pool.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT $1::text[] AS texts, $2::text[] AS numbers,
                           (SELECT array_agg(e::float8::text ORDER BY o) FROM unnest($3::text[]) WITH ORDINALITY u (e, o))
                               AS instants,
                           cardinality($4::text[]) AS empty
                    """,
                binds: [texts.bind, numbers.bind, instants.bind, PostgresTextArray().bind]))
        #expect(
            try rows[0].decode([String].self, column: "texts")
                == ["", "plain", "quo\"te", "back\\slash", "NULL", "{x,y}", "Ünïcödé 🇨🇭"])
        #expect(
            try rows[0].decode([String].self, column: "numbers")
                == ["0", "7", "-42", "1234567", String(Int.max), String(Int.min)])
        let read = try rows[0].decode([String].self, column: "instants").map { Double($0) }
        #expect(read == seconds.map { Optional($0) })
        #expect(try rows[0].decode(Int.self, column: "empty") == 0)
    }

    /// Columns written in one pass (``PostgresTextColumns``) arrive as ``PostgresTextArray`` writes
    /// them: texts, numbers, instants, an empty column as `'{}'`; and an element written in parts
    /// is their concatenation.
    @Test func columnsWrittenInOnePassArriveAsWritten() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let texts = ["", "plain", "quo\"te", "Ünïcödé 🇨🇭", String(repeating: "x", count: 300)]
        let numbers = [0, 7, -42, Int.max, Int.min]
        let seconds = [1_764_080_000.123, 0.001, -1.5, 1_764_080_000.123456]
        let capacity = 20 * 4 + texts.reduce(0) { $0 + 4 + $1.utf8.count } + 32 * (numbers.count + seconds.count)
        let binds = PostgresTextColumns.binds(capacity: capacity, columns: 4) { columns in
            columns.startColumn()
            for text in texts { columns.append(text) }
            columns.startColumn()
            for number in numbers { columns.append(number) }
            columns.startColumn()
            for instant in seconds { columns.append(seconds: instant) }
            columns.startColumn()
        }
        var parts = PostgresTextArray()
        parts.startElement()
        parts.appendToElement("key")
        parts.appendToElement(byte: UInt8(ascii: ":"))
        parts.appendToElement(-12)
        parts.endElement()
        parts.append("whole")
        #expect(binds.count == 4 && parts.elementCount == 2)
        let rows = try await pool.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT $1::text[] AS texts, $2::text[] AS numbers,
                           (SELECT array_agg(e::float8::text ORDER BY o) FROM unnest($3::text[]) WITH ORDINALITY u (e, o))
                               AS instants,
                           cardinality($4::text[]) AS empty, $5::text[] AS parts
                    """,
                binds: binds + [parts.bind]))
        #expect(try rows[0].decode([String].self, column: "texts") == texts)
        #expect(try rows[0].decode([String].self, column: "numbers") == numbers.map { String($0) })
        #expect(try rows[0].decode([String].self, column: "instants").map { Double($0) } == seconds.map { $0 })
        #expect(try rows[0].decode(Int.self, column: "empty") == 0)
        #expect(try rows[0].decode([String].self, column: "parts") == ["key:-12", "whole"])
    }
}
