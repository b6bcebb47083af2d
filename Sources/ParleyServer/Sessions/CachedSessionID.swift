import Glibc

/// A session id's text as the snapshot cache's key: `GET /v1/sessions/{id}` looks a snapshot up
/// by the id as sent, on the event loop, without hashing it with SHA-256. Equal when the bytes
/// are (never `String ==`'s canonical equivalence); hashed by its length and its first and last
/// eight bytes only. Ids the cache holds are the server's own 128 random bits, so those bytes
/// spread the buckets as a hash of the whole text would (a client's made-up id can only miss),
/// at a fraction of `String`'s hash, three or four times an answer. (The first eight alone
/// were not enough: ids made up with a common prefix, as tests and profiles number theirs,
/// all fell into one bucket.)
struct CachedSessionID: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: CachedSessionID, rhs: CachedSessionID) -> Bool {
        // A dictionary compares its key with every occupied bucket it probes: one `memcmp`,
        // not a byte-by-byte sequence comparison (~670 instructions a probe).
        var left = lhs.text
        var right = rhs.text
        return left.withUTF8 { left in
            right.withUTF8 { right in
                guard left.count == right.count else { return false }
                guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
                return memcmp(leftBase, rightBase, left.count) == 0
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        let (first, last) = text.withUTF8 { bytes -> (UInt64, UInt64) in
            guard bytes.count >= 8 else {
                var short = UInt64(truncatingIfNeeded: bytes.count) << 56
                for index in 0..<bytes.count { short |= UInt64(bytes[index]) << (8 * UInt64(index)) }
                return (short, 0)
            }
            let raw = UnsafeRawBufferPointer(bytes)
            return (
                raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self) ^ UInt64(bytes.count)
            )
        }
        hasher.combine(first)
        hasher.combine(last)
    }
}
