/// Several `text[]` parameters (a batch statement's columns) written in one pass into one buffer
/// whose size the caller bounds beforehand (issue 27): each element a length and its bytes
/// stored through a pointer, where ``PostgresTextArray``'s appends each checked the buffer's
/// capacity and uniqueness (a one-answer session batch's eleven columns cost ~6,900
/// instructions that way).
///
/// ```swift
/// let binds = PostgresTextColumns.binds(capacity: bound, columns: 1) { columns in
///     columns.startColumn()
///     for row in rows { columns.append(row.name) }
/// }
/// ```
public enum PostgresTextColumns {
    /// Writes `write`'s columns into a buffer of `capacity` bytes and returns them as parameters,
    /// in order: an empty array for a column without elements. `capacity` must hold every
    /// column's 20-byte header, and each element's 4-byte length and bytes (at most 32 for a
    /// number or an instant), and `write` may start at most `columns` columns: writing past
    /// either stops the process rather than the memory.
    public static func binds(capacity: Int, columns: Int, _ write: (inout Writer) -> Void) -> [PostgresBind] {
        // The columns' ranges on the stack, and the buffer written before its array exists (no
        // zero-fill): an array of ranges and a zeroed buffer were an allocation and a memset an
        // answer's batch.
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: max(columns, 1)) { ranges in
            var written = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: max(capacity, 0)) { buffer, count in
                var writer = Writer(raw: UnsafeMutableRawBufferPointer(buffer), ranges: ranges)
                write(&writer)
                writer.endColumn()
                count = writer.writtenBytes
                written = writer.columnCount
            }
            var binds: [PostgresBind] = []
            binds.reserveCapacity(written)
            for range in ranges[..<written] {
                binds.append(
                    range.isEmpty
                        ? PostgresTextArray.empty
                        : PostgresBind(typeOID: PostgresBind.OID.textArray, value: bytes[range]))
            }
            return binds
        }
    }

    /// Writes elements into the buffer of ``PostgresTextColumns/binds(capacity:columns:_:)``; valid
    /// only inside its closure (it points into that buffer).
    public struct Writer {
        private let raw: UnsafeMutableRawBufferPointer
        private var position = 0
        /// Where the column being written starts; nil before the first ``startColumn()``.
        private var columnStart: Int?
        private var count: Int32 = 0
        /// Each ended column's range, in order: room for as many columns as the caller said.
        private let ranges: UnsafeMutableBufferPointer<Range<Int>>
        /// How many columns were ended.
        fileprivate private(set) var columnCount = 0

        fileprivate init(raw: UnsafeMutableRawBufferPointer, ranges: UnsafeMutableBufferPointer<Range<Int>>) {
            self.raw = raw
            self.ranges = ranges
        }

        /// How many bytes of the buffer are written.
        fileprivate var writtenBytes: Int { position }

        /// Ends the column being written (if any) and starts the next.
        public mutating func startColumn() {
            endColumn()
            reserve(20)
            columnStart = position
            // ndim 1, no nulls, element type text, length (stored at the column's end), lower bound 1.
            store(1, at: position)
            store(0, at: position + 4)
            store(25, at: position + 8)
            store(0, at: position + 12)
            store(1, at: position + 16)
            position += 20
        }

        /// Appends `text` as the next element.
        public mutating func append(_ text: String) {
            // In place for a native or small string (every text a batch writes): `withUTF8` on a
            // copy retained and released the string's storage for each element.
            if let done: Void = text.utf8.withContiguousStorageIfAvailable({ append(utf8: UnsafeRawBufferPointer($0)) })
            {
                return done
            }
            var text = text
            text.withUTF8 { append(utf8: UnsafeRawBufferPointer($0)) }
        }

        /// Appends `utf8`, UTF-8 text (never checked here), as the next element: for text kept as
        /// bytes or written on the stack rather than in a `String` of its own.
        public mutating func append(utf8: UnsafeRawBufferPointer) {
            reserve(4 + utf8.count)
            store(UInt32(truncatingIfNeeded: utf8.count), at: position)
            if let source = utf8.baseAddress {
                (raw.baseAddress! + position + 4).copyMemory(from: source, byteCount: utf8.count)
            }
            position += 4 + utf8.count
            count += 1
        }

        /// Appends `value`'s decimal digits as the next element.
        public mutating func append(_ value: Int) {
            appendNumber(value, milliseconds: false)
        }

        /// Appends `seconds` (since 1970) as text `float8` reads back as exactly the same value,
        /// as ``PostgresTextArray/append(seconds:)`` does.
        public mutating func append(seconds: Double) {
            let milliseconds = (seconds * 1000).rounded()
            guard milliseconds / 1000 == seconds, abs(milliseconds) < 1e15 else { return append(String(seconds)) }
            appendNumber(Int(milliseconds), milliseconds: true)
        }

        /// The digits (then `e-3` when `milliseconds`), written backwards after room for the
        /// length (at most 4 + 1 + 19 + 3 = 27 bytes), then moved to their place.
        private mutating func appendNumber(_ value: Int, milliseconds: Bool) {
            reserve(32)
            var end = position + 32
            let cursor = PostgresTextArray.writeDigits(value, milliseconds: milliseconds, endingAt: end, in: raw)
            let length = end - cursor
            let base = raw.baseAddress!
            (base + position + 4).copyMemory(from: base + cursor, byteCount: length)
            store(UInt32(truncatingIfNeeded: length), at: position)
            end = position + 4 + length
            // The scratch bytes past the element are overwritten by the next one or left unused.
            position = end
            count += 1
        }

        /// Ends the column being written: its element count stored, its range kept.
        fileprivate mutating func endColumn() {
            guard let start = columnStart else { return }
            precondition(columnCount < ranges.count, "PostgresTextColumns: more columns than said")
            if count > 0 {
                store(UInt32(bitPattern: count), at: start + 12)
                ranges.initializeElement(at: columnCount, to: start..<position)
            } else {
                ranges.initializeElement(at: columnCount, to: start..<start)
            }
            columnCount += 1
            columnStart = nil
            count = 0
        }

        /// Stops the process unless `bytes` more fit: the caller's bound was wrong.
        private func reserve(_ bytes: Int) {
            precondition(position + bytes <= raw.count, "PostgresTextColumns: capacity \(raw.count) too small")
        }

        /// `value` big-endian at `offset` (which `reserve` checked).
        private func store(_ value: UInt32, at offset: Int) {
            raw.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt32.self)
        }
    }
}
