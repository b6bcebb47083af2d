/// Canonical JSON bytes: object keys sorted by Unicode scalar value, no
/// insignificant whitespace, numbers in ``JSONNumber``'s canonical text,
/// strings with the minimal escapes (`"`, `\`, and control characters as
/// `\b \f \n \r \t` or `\u00XX`; everything else as raw UTF-8).
///
/// Identical content therefore gives identical bytes: the input of content
/// hashes, ETags and bundle digests (docs/wire-format.md "Bundle").
public enum CanonicalJSON {
    /// Encodes a value canonically.
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, into: &output)
        return output
    }

    /// Encodes a value canonically as a string.
    public static func string(_ value: JSONValue) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }

    /// Appends a value's canonical bytes.
    public static func write(_ value: JSONValue, into output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.description.utf8)
        case .string(let string): writeString(string, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                write(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            var first = true
            for member in object.members {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                write(member.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The escape of a byte that needs one (`"`, `\\`, a control character).
    private static func writeEscape(_ byte: UInt8, into output: inout [UInt8]) {
        switch byte {
        case 0x22: output += [0x5C, 0x22]
        case 0x5C: output += [0x5C, 0x5C]
        case 0x08: output += [0x5C, UInt8(ascii: "b")]
        case 0x0C: output += [0x5C, UInt8(ascii: "f")]
        case 0x0A: output += [0x5C, UInt8(ascii: "n")]
        case 0x0D: output += [0x5C, UInt8(ascii: "r")]
        case 0x09: output += [0x5C, UInt8(ascii: "t")]
        default:
            output += [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `string` as a JSON string with the minimal escapes: the runs between characters
    /// that need one are copied whole (every snapshot, log row and fingerprint writes strings).
    public static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // The bytes where the string keeps them (native and small strings): `withUTF8` needs a
        // mutable copy, a retain and release of the storage per string.
        if string.utf8.withContiguousStorageIfAvailable({ writeEscaped($0, into: &output) }) == nil {
            var string = string
            string.withUTF8 { writeEscaped($0, into: &output) }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Appends the UTF-8 string `bytes` as ``writeString(_:into:)`` does (``Answers`` keeps its
    /// ids and values as bytes).
    static func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        writeEscaped(bytes, into: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// `bytes` with the minimal escapes. Most strings need none: they are checked eight bytes at
    /// a time, and only a word holding a byte to escape is walked byte by byte.
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        let raw = UnsafeRawBufferPointer(bytes)
        var run = 0
        var index = 0
        while index < bytes.count {
            if index + 8 <= bytes.count,
                !mayNeedEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            {
                index += 8
                continue
            }
            let end = Swift.min(index + 8, bytes.count)
            while index < end {
                let byte = bytes[index]
                if byte < 0x20 || byte == 0x22 || byte == 0x5C {
                    if run < index { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index])) }
                    run = index + 1
                    writeEscape(byte, into: &output)
                }
                index += 1
            }
        }
        if run < bytes.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...])) }
    }

    /// Whether any of the word's eight bytes is a control character, `"` or `\\`.
    private static func mayNeedEscape(_ word: UInt64) -> Bool { escapeBits(word) != 0 }

    /// The high bit of the bytes of `word` (little-endian) that a JSON string must escape: a
    /// control character, `"` or `\\`. Each test is the classic "has a byte less than n" / "has a
    /// zero byte" bit trick: the result is zero exactly when no byte needs escaping, and its
    /// lowest set bit is at the first byte that does (no borrow reaches a byte below it; bytes
    /// above it may be marked wrongly). One definition for the writer here and for readers that
    /// look for a string's end a word at a time (the server's answer body).
    @inlinable
    public static func escapeBits(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let control = (word &- ones &* 0x20) & ~word
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return (control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & (ones &* 0x80)
    }
}
