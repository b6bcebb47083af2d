/// Lowercase hexadecimal text for bytes.
public enum Hex {
    /// Lowercase hex of `bytes`, written straight into the string's storage: a session's key is
    /// encoded on every answer, and an array of digits appended one by one, then decoded and
    /// validated, cost ~1,700 instructions for 32 bytes.
    public static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { input in
            String(unsafeUninitializedCapacity: input.count * 2) { output in
                write(input, into: UnsafeMutableRawBufferPointer(output))
                return input.count * 2
            }
        }
    }

    /// Writes the lowercase hex of `bytes` into the first `2 * bytes.count` bytes of `output`:
    /// for callers that keep the digits on the stack (a session key in a batch's parameters).
    public static func write(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= 2 * bytes.count)
        for (index, byte) in bytes.enumerated() {
            output[2 * index] = digit(byte >> 4)
            output[2 * index + 1] = digit(byte & 0x0F)
        }
    }

    /// The lowercase hex digit of a nibble.
    @inline(__always)
    private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }

    /// Bytes of a hex string (either case); throws on odd length or a non-hex character.
    public static func decode(_ text: String) throws(CryptoError) -> [UInt8] {
        let utf8 = Array(text.utf8)
        guard utf8.count.isMultiple(of: 2) else {
            throw .invalidEncoding("hex text has an odd number of digits (\(utf8.count))")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else {
                throw .invalidEncoding("hex text has a non-hex character near position \(index)")
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// The value of one hex digit (either case), nil for any other byte: for readers that decode
    /// hex where it lies (the snapshot cache's session keys) instead of through ``decode(_:)``.
    @inlinable
    public static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: return digit - 0x30
        case 0x61...0x66: return digit - 0x61 + 10
        case 0x41...0x46: return digit - 0x41 + 10
        default: return nil
        }
    }
}
