import CLibPQ
import Glibc

/// The rows one statement returned, read in place from libpq's result (kept alive as long as
/// these rows or one of their rows is), so they outlive the connection without a copy.
public struct PostgresRows: Sendable, RandomAccessCollection {
    /// libpq's result; nil for ``empty``.
    let result: PostgresResult?

    /// No rows and no command (an empty statement).
    static let empty = PostgresRows(result: nil)

    /// Column names in result order.
    public var columns: [String] {
        guard let result else { return [] }
        return (0..<result.columnCount).map { result.columnName($0) }
    }

    /// Column type OIDs in result order.
    public var columnTypes: [UInt32] {
        guard let result else { return [] }
        return (0..<result.columnCount).map { result.columnType($0) }
    }

    /// The command tag, e.g. `INSERT 0 1` or `COMMIT`.
    public var commandTag: String {
        guard let result else { return "" }
        return String(cString: PQcmdStatus(result.pointer))
    }

    /// Whether the command tag is exactly `tag` (read in place, no `String`).
    func hasCommandTag(_ tag: StaticString) -> Bool {
        guard let result, let status = PQcmdStatus(result.pointer) else { return tag.utf8CodeUnitCount == 0 }
        return strcmp(status, UnsafeRawPointer(tag.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    /// Rows inserted, updated, deleted or selected, as the command tag reports.
    public var affectedRows: Int {
        guard let result else { return 0 }
        return affectedRowsOf(result.pointer)
    }

    /// The first row index.
    public var startIndex: Int { 0 }
    /// One past the last row index.
    public var endIndex: Int { result?.rowCount ?? 0 }

    /// The row at `position`.
    public subscript(position: Int) -> PostgresRow {
        precondition(indices.contains(position), "row \(position) is out of range (0..<\(endIndex))")
        return PostgresRow(result: result!, row: position)
    }
}

/// One result row; decode its columns by name or position.
public struct PostgresRow: Sendable {
    let result: PostgresResult
    let row: Int

    /// Column names in result order.
    public var columns: [String] { (0..<result.columnCount).map { result.columnName($0) } }

    /// The column named `column` as `type`; errors name the column and what was expected.
    ///
    /// Decode `T?` to accept `NULL`; decoding `NULL` into a non-optional type is an error.
    public func decode<T: PostgresDecodable>(_ type: T.Type = T.self, column: String) throws -> T {
        guard let index = result.columnIndex(column) else {
            throw PostgresError(
                .decoding,
                message: "no column \"\(column)\" in the result (columns: \(columns.joined(separator: ", ")))")
        }
        return try decode(type, at: index)
    }

    /// The column at `index` (0-based) as `type`.
    public func decode<T: PostgresDecodable>(_ type: T.Type = T.self, at index: Int) throws -> T {
        guard (0..<result.columnCount).contains(index) else {
            throw PostgresError(
                .decoding, message: "no column at index \(index) (the result has \(result.columnCount))")
        }
        guard !result.isNull(row, index) else {
            if let null = T.postgresNull { return null }
            throw PostgresError(
                .decoding,
                message: "column \"\(result.columnName(index))\" is NULL; decode \(T.self)? to accept NULL")
        }
        let typeOID = result.columnType(index)
        do {
            return try result.withValue(row, index) { try T.decode(postgresBytes: $0, typeOID: typeOID) }
        } catch let failure as PostgresDecodingFailure {
            throw PostgresError(
                .decoding,
                message: "column \"\(result.columnName(index))\" (type OID \(typeOID)) is not \(failure.expected)")
        }
    }

    /// Calls `body` with the text of the column at `index` where libpq holds it (no copy, no
    /// `String`): for a reader that only compares it (the session appender matches each returned
    /// `(key, rev)` to its change). Nil when the column does not exist or is `NULL`.
    public func withText<T>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T? {
        guard (0..<result.columnCount).contains(index), !result.isNull(row, index) else { return nil }
        let length = Int(PQgetlength(result.pointer, Int32(row), Int32(index)))
        guard length > 0, let start = PQgetvalue(result.pointer, Int32(row), Int32(index)) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: UnsafeRawPointer(start), count: length))
    }

    /// True when the column at `index` is SQL `NULL`.
    public func isNull(at index: Int) -> Bool {
        (0..<result.columnCount).contains(index) && result.isNull(row, index)
    }
}
