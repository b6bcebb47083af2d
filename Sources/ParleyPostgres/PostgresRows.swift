/// The rows one statement returned, copied out of libpq so they outlive the connection.
public struct PostgresRows: Sendable, RandomAccessCollection {
    /// Column names in result order.
    public let columns: [String]
    /// Column type OIDs in result order.
    public let columnTypes: [UInt32]
    /// The command tag, e.g. `INSERT 0 1` or `COMMIT`.
    public let commandTag: String
    /// Rows inserted, updated, deleted or selected, as the command tag reports.
    public let affectedRows: Int
    let cells: [[[UInt8]?]]

    /// The first row index.
    public var startIndex: Int { 0 }
    /// One past the last row index.
    public var endIndex: Int { cells.count }

    /// The row at `position`.
    public subscript(position: Int) -> PostgresRow {
        PostgresRow(columns: columns, columnTypes: columnTypes, cells: cells[position])
    }
}

/// One result row; decode its columns by name or position.
public struct PostgresRow: Sendable {
    /// Column names in result order.
    public let columns: [String]
    let columnTypes: [UInt32]
    let cells: [[UInt8]?]

    /// The column named `column` as `type`; errors name the column and what was expected.
    ///
    /// Decode `T?` to accept `NULL`; decoding `NULL` into a non-optional type is an error.
    public func decode<T: PostgresDecodable>(_ type: T.Type = T.self, column: String) throws -> T {
        guard let index = columns.firstIndex(of: column) else {
            throw PostgresError(
                .decoding,
                message: "no column \"\(column)\" in the result (columns: \(columns.joined(separator: ", ")))")
        }
        return try decode(type, at: index)
    }

    /// The column at `index` (0-based) as `type`.
    public func decode<T: PostgresDecodable>(_ type: T.Type = T.self, at index: Int) throws -> T {
        guard cells.indices.contains(index) else {
            throw PostgresError(.decoding, message: "no column at index \(index) (the result has \(cells.count))")
        }
        guard let text = cells[index] else {
            if let null = T.postgresNull { return null }
            throw PostgresError(
                .decoding, message: "column \"\(columns[index])\" is NULL; decode \(T.self)? to accept NULL")
        }
        do {
            return try T.decode(postgresText: text, typeOID: columnTypes[index])
        } catch let failure as PostgresDecodingFailure {
            throw PostgresError(
                .decoding,
                message: "column \"\(columns[index])\" (type OID \(columnTypes[index])) is not \(failure.expected)")
        }
    }

    /// True when the column at `index` is SQL `NULL`.
    public func isNull(at index: Int) -> Bool { cells.indices.contains(index) && cells[index] == nil }
}
