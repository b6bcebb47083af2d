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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for _ in 0..<2 {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return SessionID(base64url(bytes))
    }

    /// RFC 4648 §5 base64url without padding.
    static func base64url(_ bytes: [UInt8]) -> String {
        var text = ""
        for scalar in Base64.encode(bytes).unicodeScalars {
            switch scalar {
            case "+": text.append("-")
            case "/": text.append("_")
            case "=": continue
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}
