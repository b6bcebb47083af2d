/// Encodes header fields as `name: value` CRLF lines. It lives beside the parser, not in the
/// server's `ResponseEncoder`, because `HTTPHeaders` pre-encodes shared fields with it and the
/// parser's sources build alone (deploy/fuzz compiles `Parser/` with the fuzzer only).
enum HTTPFieldEncoding {
    /// Whether `name` is a field the server sets itself.
    static func isFraming(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: name.isASCIICaseInsensitiveEqual(to: "Date")
        case 10: name.isASCIICaseInsensitiveEqual(to: "Connection")
        case 14: name.isASCIICaseInsensitiveEqual(to: "Content-Length")
        case 17: name.isASCIICaseInsensitiveEqual(to: "Transfer-Encoding")
        default: false
        }
    }

    /// `fields` but the framing ones as `name: value` CRLF, assembled in scratch space and
    /// appended at once: one growth check and one copy instead of six appends per field.
    static func appendFields(_ fields: [HTTPField], to output: inout [UInt8]) {
        let total = encodedCount(fields)
        guard total > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { scratch in
            var writer = ByteWriter(scratch)
            write(fields, to: &writer)
            output.append(contentsOf: writer.written)
        }
    }

    /// The number of bytes ``write(_:to:)`` writes for `fields`.
    static func encodedCount(_ fields: [HTTPField]) -> Int {
        var total = 0
        for field in fields where !isFraming(field.name) {
            total += field.name.utf8.count + field.value.utf8.count + 4
        }
        return total
    }

    /// `fields` but the framing ones as `name: value` CRLF.
    static func write(_ fields: [HTTPField], to writer: inout ByteWriter) {
        for field in fields where !isFraming(field.name) {
            writer.write(field.name)
            writer.write(58)
            writer.write(32)
            writer.write(field.value)
            writer.write(13)
            writer.write(10)
        }
    }
}
