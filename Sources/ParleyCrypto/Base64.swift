import COpenSSL

/// Standard base64 (RFC 4648 §4, with padding) via OpenSSL's `EVP_EncodeBlock`/`EVP_DecodeBlock`.
public enum Base64 {
    /// Base64 text of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "" }
        var output = [UInt8](repeating: 0, count: (bytes.count + 2) / 3 * 4 + 1)
        let length = bytes.withUnsafeBufferPointer { input in
            EVP_EncodeBlock(&output, input.baseAddress, Int32(input.count))
        }
        return String(decoding: output.prefix(Int(length)), as: UTF8.self)
    }

    /// Bytes of padded base64 text. Strict: no whitespace, length a multiple
    /// of four, padding only at the end (`EVP_DecodeBlock` alone would accept
    /// surrounding whitespace and return the padding as zero bytes).
    public static func decode(_ text: String) throws(CryptoError) -> [UInt8] {
        let input = Array(text.utf8)
        if input.isEmpty { return [] }
        guard input.count.isMultiple(of: 4) else {
            throw .invalidEncoding("base64 text has \(input.count) characters; expected a multiple of 4")
        }
        let padding = input.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { throw .invalidEncoding("base64 text has too much '=' padding") }
        for byte in input.dropLast(padding) where !isAlphabet(byte) {
            throw .invalidEncoding("base64 text has a character outside the base64 alphabet")
        }
        var output = [UInt8](repeating: 0, count: input.count / 4 * 3)
        let length = input.withUnsafeBufferPointer { buffer in
            EVP_DecodeBlock(&output, buffer.baseAddress, Int32(buffer.count))
        }
        guard length >= 0 else { throw .invalidEncoding("base64 text could not be decoded") }
        return Array(output.prefix(Int(length) - padding))
    }

    private static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, UInt8(ascii: "+"), UInt8(ascii: "/"): return true
        default: return false
        }
    }
}
