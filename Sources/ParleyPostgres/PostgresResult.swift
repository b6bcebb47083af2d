import CLibPQ

/// One libpq result, kept as libpq built it and cleared with the last rows that read it.
///
/// Copying every cell, column name and command tag out of libpq cost a group commit ~10k
/// instructions an answer (four results a batch, most of them read for one word or not at all);
/// a result is read-only once libpq returns it, so rows read it in place, from any thread
/// (libpq: "PGresult objects are normally read-only after creation, and so can be passed
/// around freely between threads").
final class PostgresResult: @unchecked Sendable {
    let pointer: OpaquePointer
    let rowCount: Int
    let columnCount: Int

    /// Takes ownership of `pointer`: it is cleared when this goes.
    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
        rowCount = Int(PQntuples(pointer))
        columnCount = Int(PQnfields(pointer))
    }

    deinit { PQclear(pointer) }

    /// The name of column `index` (which exists).
    func columnName(_ index: Int) -> String { String(cString: PQfname(pointer, Int32(index))) }

    /// The type OID of column `index` (which exists).
    func columnType(_ index: Int) -> UInt32 { PQftype(pointer, Int32(index)) }

    /// The index of the column named exactly `name` (libpq's `PQfnumber` folds unquoted names).
    func columnIndex(_ name: String) -> Int? {
        (0..<columnCount).first { index in
            name.utf8.withContiguousStorageIfAvailable { bytes in
                isNamed(PQfname(pointer, Int32(index)), bytes)
            } ?? (columnName(index) == name)
        }
    }

    /// Whether the cell at `row`, `column` (which exist) is SQL `NULL`.
    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(pointer, Int32(row), Int32(column)) != 0 }

    /// Calls `body` with the bytes of the cell at `row`, `column` (which exist and is not `NULL`)
    /// where libpq holds them: valid for the call only, while this result lives.
    func withValue<T>(_ row: Int, _ column: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let length = Int(PQgetlength(pointer, Int32(row), Int32(column)))
        guard length > 0, let start = PQgetvalue(pointer, Int32(row), Int32(column)) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try withExtendedLifetime(self) {
            try body(UnsafeRawBufferPointer(start: UnsafeRawPointer(start), count: length))
        }
    }

    /// The text of the cell at `row`, `column` (which exist and is not `NULL`).
    func value(_ row: Int, _ column: Int) -> [UInt8] {
        let length = Int(PQgetlength(pointer, Int32(row), Int32(column)))
        guard length > 0, let start = PQgetvalue(pointer, Int32(row), Int32(column)) else { return [] }
        return Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(start), count: length))
    }
}

/// Whether the NUL-terminated `name` is exactly `bytes`.
private func isNamed(_ name: UnsafePointer<CChar>?, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let name else { return false }
    var index = 0
    while index < bytes.count {
        let byte = UInt8(bitPattern: name[index])
        guard byte != 0, byte == bytes[index] else { return false }
        index += 1
    }
    return name[index] == 0
}
