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
        var total = 0
        for field in fields where !isFraming(field.name) {
            total += field.name.utf8.count + field.value.utf8.count + 4
        }
        guard total > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { scratch in
            var offset = 0
            for field in fields where !isFraming(field.name) {
                offset = copyUTF8(field.name, into: scratch, at: offset)
                scratch[offset] = 58
                scratch[offset + 1] = 32
                offset = copyUTF8(field.value, into: scratch, at: offset + 2)
                scratch[offset] = 13
                scratch[offset + 1] = 10
                offset += 2
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[0..<offset]))
        }
    }

    /// Copies `text`'s UTF-8 into `scratch` at `offset`; returns the offset after it.
    private static func copyUTF8(_ text: String, into scratch: UnsafeMutableBufferPointer<UInt8>, at offset: Int)
        -> Int
    {
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
            if let source = bytes.baseAddress, bytes.count > 0 {
                (scratch.baseAddress! + offset).update(from: source, count: bytes.count)
            }
            return offset + bytes.count
        }
        if let copied { return copied }
        var next = offset
        for byte in text.utf8 {
            scratch[next] = byte
            next += 1
        }
        return next
    }
}
