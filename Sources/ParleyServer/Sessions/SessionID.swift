import ParleyCrypto

/// A session id (DESIGN.md "Sessions"): 128 random bits as base64url, a bearer
/// capability. The server never stores it: rows are keyed by ``key``, the SHA-256 of
/// the id's text, so a database dump holds no usable ids.
struct SessionID: Sendable {
    /// The id as the client sends it.
    let text: String
    /// SHA-256 of the id's UTF-8 bytes: the `sessions.key` column. Inline (``SessionKey``), not an
    /// array: every cached session's state holds one.
    let key: SessionKey

    /// Wraps whatever the client sent. A malformed id is not rejected here: it is hashed
    /// and looked up like any other, so "malformed" and "unknown" take the same path and
    /// the same time (both end in 404), which tells a guesser nothing.
    init(_ text: String) {
        self.text = text
        // A SHA-256 digest is always 32 bytes.
        guard let key = SessionKey(SHA256.hash(Array(text.utf8))) else { preconditionFailure("SHA-256 is 32 bytes") }
        self.key = key
    }

    /// A fresh id from the system's cryptographically secure generator (getrandom on Linux).
    static func generate() -> SessionID {
        var generator = SystemRandomNumberGenerator()
        let random = (generator.next() as UInt64, generator.next() as UInt64)
        return SessionID(withUnsafeBytes(of: random) { base64url($0) })
    }

    /// RFC 4648 §5 base64url without padding, written straight into the string's storage: the
    /// standard alphabet's text rewritten scalar by scalar cost a start ~9.7k instructions.
    static func base64url(_ bytes: UnsafeRawBufferPointer) -> String {
        let count = (bytes.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: count) { text in
            var written = 0
            var index = 0
            while index < bytes.count {
                let left = bytes.count - index
                let group =
                    UInt32(bytes[index]) << 16 | (left > 1 ? UInt32(bytes[index + 1]) << 8 : 0)
                    | (left > 2 ? UInt32(bytes[index + 2]) : 0)
                for place in 0..<min(4, left + 1) {
                    text[written] = alphabet[Int(group >> (18 - 6 * UInt32(place)) & 63)]
                    written += 1
                }
                index += 3
            }
            return written
        }
    }

    /// RFC 4648 §5's alphabet, as bytes.
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
