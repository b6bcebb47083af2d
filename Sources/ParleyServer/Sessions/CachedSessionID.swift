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
        // A dictionary compares its key with every occupied bucket it probes: lengths first (a
        // stored count), then one `memcmp`, not a byte-by-byte sequence comparison (~670
        // instructions a probe). The bytes are read where the strings keep them: `withUTF8` on a
        // copy retained and released both strings' storage on every probe.
        let count = lhs.text.utf8.count
        guard count == rhs.text.utf8.count else { return false }
        return Self.withBytes(lhs.text) { left in
            Self.withBytes(rhs.text) { right in
                guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
                return memcmp(leftBase, rightBase, count) == 0
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        let (first, last) = Self.withBytes(text) { bytes -> (UInt64, UInt64) in
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

    /// `body` over the text's UTF-8 bytes, in place for a native or small string (every id the
    /// cache holds or is asked for); a bridged one is copied first.
    private static func withBytes<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = text
        return text.withUTF8(body)
    }
}
