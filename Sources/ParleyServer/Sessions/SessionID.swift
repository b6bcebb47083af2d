import Foundation
import ParleyCrypto

/// A session id (DESIGN.md "Sessions"): the start's millisecond (48 bits), then 128 random bits,
/// as 30 base64url characters; a bearer capability. The server never stores it: rows are keyed by
/// ``key``, derived from the id's text with SHA-256, so a database dump holds no usable ids.
///
/// Why the time (issue 27): the key leads the primary key of `sessions` and of `session_log`. As a
/// bare SHA-256 it put every start and every answer on a random leaf page of both indexes; once
/// they outgrew Postgres's buffers (~2.3M log rows on a default cluster), two writes in five read
/// a page from the kernel and nearly half wrote a dirty one back first. Led by the start's
/// millisecond, sessions started together are neighbours: a write load touches the indexes'
/// newest pages (62,754 index pages read for ~110,000 answers to just-started sessions against
/// 1,759; starts 14,500-14,700/s against 17,600-19,400/s at c=32 on one cluster). The time is no secret: the
/// id's holder knows when they started, and the row keeps `created_at`.
struct SessionID: Sendable {
    /// The id as the client sends it.
    let text: String
    /// The `sessions.key` column (``key(of:)``). Inline (``SessionKey``), not an array: every
    /// cached session's state holds one.
    let key: SessionKey

    /// The length of an id this server issues: 8 characters of time and 22 of randomness.
    static let length = 30
    /// The characters of an id that spell its start's millisecond (6 bytes).
    static let timeCharacters = 8

    /// Wraps whatever the client sent. A malformed id is not rejected here: its key is derived
    /// and looked up like any other, so "malformed" and "unknown" take the same path and the
    /// same time (both end in 404), which tells a guesser nothing.
    init(_ text: String) {
        self.text = text
        key = Self.key(of: text)
    }

    /// The key of an id (migration 0011's `parley_session_key` in SQL): for an id of the current
    /// form (``length`` characters, the first ``timeCharacters`` base64url), the 6 bytes they
    /// spell, then the first 26 bytes of the SHA-256 of the whole text; for any other id (the 22
    /// random characters issued before, or anything a client makes up), the SHA-256 of its text.
    /// 208 bits of the hash are as far from an id as 256: the key still gives no id back.
    static func key(of text: String) -> SessionKey {
        let utf8 = Array(text.utf8)
        let digest = SHA256.hash(utf8)
        guard utf8.count == length, let time = utf8.withUnsafeBufferPointer({ millisecond(spelledBy: $0) }) else {
            // A SHA-256 digest is always 32 bytes.
            guard let key = SessionKey(digest) else { preconditionFailure("SHA-256 is 32 bytes") }
            return key
        }
        return digest.withUnsafeBytes { SessionKey(leadingTime: time, digest: $0) }
    }

    /// A fresh id for a session started at `startedAt` (seconds since 1970), its randomness from
    /// the system's cryptographically secure generator (getrandom on Linux). The time's 6 bytes
    /// are two whole groups of base64's three, so one encoding of the 22 bytes spells them in the
    /// first 8 characters and the randomness in the rest (one string, not three).
    static func generate(startedAt: Double = Date().timeIntervalSince1970) -> SessionID {
        let time = UInt64(max(0, (startedAt * 1000).rounded(.down))) & 0xFFFF_FFFF_FFFF
        var generator = SystemRandomNumberGenerator()
        let random = (generator.next() as UInt64, generator.next() as UInt64)
        // 24 bytes of room on the stack: the time's 6 (most significant first), the 16 random ones
        // after them, then 2 unused.
        var bytes: (UInt64, UInt64, UInt64) = ((time << 16).bigEndian, 0, 0)
        return withUnsafeMutableBytes(of: &bytes) { raw in
            withUnsafeBytes(of: random) { UnsafeMutableRawBufferPointer(rebasing: raw[6..<22]).copyMemory(from: $0) }
            return SessionID(base64url(UnsafeRawBufferPointer(rebasing: raw[0..<22])))
        }
    }

    /// The 48-bit number that the first ``timeCharacters`` of `characters` (base64url) spell, most
    /// significant first; nil if one is outside the alphabet.
    private static func millisecond(spelledBy characters: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var time: UInt64 = 0
        for character in characters.prefix(timeCharacters) {
            let value: UInt8
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = character - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = character - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "_"): value = 63
            default: return nil
            }
            time = time << 6 | UInt64(value)
        }
        return time
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
