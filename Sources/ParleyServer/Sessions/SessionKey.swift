import ParleyCrypto

/// A session's key (``SessionID/key``, the SHA-256 of its id) as four words: how the snapshot
/// cache finds a session named by a `parley_sessions` notification. Hashing 64 hex digits as a
/// `String` cost ~800 instructions, and the cache hashed them five times an answer; a SHA-256
/// output is uniformly distributed already, so one word of it (through the seeded `Hasher`)
/// spreads the buckets as well, and equality still compares all four.
struct SessionKey: Hashable, Sendable {
    private let words: (UInt64, UInt64, UInt64, UInt64)

    /// The key of 32 bytes (a SHA-256); nil for any other length.
    init?(_ bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        words = bytes.withUnsafeBytes { raw in
            (
                raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
            )
        }
    }

    /// The key whose lowercase or uppercase hex is `hex` (64 digits); nil for anything else.
    /// Decoded straight into the words, without an array of bytes first.
    init?(hex: UnsafeBufferPointer<UInt8>) {
        guard hex.count == 64, let first = Self.word(hex, 0), let second = Self.word(hex, 1),
            let third = Self.word(hex, 2), let fourth = Self.word(hex, 3)
        else { return nil }
        words = (first, second, third, fourth)
    }

    /// Word `index` of the key in `hex`: its eight bytes in memory order, as ``init(_:)`` loads
    /// them from the bytes.
    private static func word(_ hex: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt64? {
        var value: UInt64 = 0
        for byte in 0..<8 {
            let digit = 16 * index + 2 * byte
            guard let high = Hex.value(hex[digit]), let low = Hex.value(hex[digit + 1]) else { return nil }
            value |= UInt64(high << 4 | low) << (8 * UInt64(byte))
        }
        return UInt64(littleEndian: value)
    }

    /// Two words of the key that ``hash(into:)`` does not use: a slot and a fingerprint for a
    /// table of its own (``NotifiedRevs``).
    var tableWords: (UInt64, UInt64) { (words.1, words.2) }

    static func == (lhs: SessionKey, rhs: SessionKey) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
            && lhs.words.3 == rhs.words.3
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
    }
}
