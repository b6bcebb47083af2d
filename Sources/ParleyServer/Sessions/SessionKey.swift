import ParleyCrypto

/// A session's key (``SessionID/key``: the start's millisecond and 26 bytes of the SHA-256 of its
/// id, or the whole SHA-256 of an older id) as four words: how a session's state holds it and how
/// the snapshot cache finds a session named by a `parley_sessions` notification. Hashing 64 hex
/// digits as a `String` cost ~800 instructions, and the cache hashed them five times an answer;
/// the last three words are SHA-256 output, uniformly distributed already, so one of them
/// (through the seeded `Hasher`) spreads the buckets as well, and equality still compares all
/// four. Held inline, not as a `[UInt8]`: no allocation per id hashed, and ~60 bytes less per
/// cached session (an array's header and its malloc rounding, issue 27's RSS).
struct SessionKey: Hashable, Sendable {
    private let words: (UInt64, UInt64, UInt64, UInt64)

    /// The number of bytes of a key (a SHA-256 digest).
    static let byteCount = 32

    /// The key of 32 bytes (a SHA-256); nil for any other length.
    init?(_ bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        words = bytes.withUnsafeBytes { raw in
            (
                raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
            )
        }
    }

    /// A current id's key (``SessionID/key(of:)``): the low 6 bytes of `time`, most significant
    /// first, then the first 26 bytes of `digest` (a SHA-256), written in place: no array.
    init(leadingTime time: UInt64, digest: UnsafeRawBufferPointer) {
        precondition(digest.count >= 26, "a key takes 26 bytes of its digest")
        var bytes: (UInt64, UInt64, UInt64, UInt64) = ((time << 16).bigEndian, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            UnsafeMutableRawBufferPointer(rebasing: raw[6..<32]).copyMemory(
                from: UnsafeRawBufferPointer(rebasing: digest[0..<26]))
        }
        words = bytes
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
    /// them from the bytes. Its sixteen digits are read as two words and decoded eight at a time
    /// (``bytes(spelledBy:)``): a digit at a time, a notification's key cost ~480 instructions.
    private static func word(_ hex: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt64? {
        let raw = UnsafeRawBufferPointer(hex)
        guard
            let first = bytes(
                spelledBy: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16 * index, as: UInt64.self))),
            let second = bytes(
                spelledBy: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16 * index + 8, as: UInt64.self)))
        else { return nil }
        return UInt64(littleEndian: first | second << 32)
    }

    /// The four bytes that eight hex digits (either case) spell, the first digit in `digits`'
    /// lowest byte and the first byte in the result's; nil unless all eight are hex digits.
    ///
    /// Each byte of `digits` at once: a digit's value is its low nibble, plus 9 for a letter (bit
    /// 6 set); the digit is valid when that value is below 16 and spells the digit back in
    /// lowercase (the letter's case bit set). Nothing carries from one byte into the next: a
    /// value is at most 15 + 9, and spelled back at most 0x6F.
    private static func bytes(spelledBy digits: UInt64) -> UInt64? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let letter = (digits >> 6) & ones
        let nibbles = (digits & 0x0F0F_0F0F_0F0F_0F0F) &+ letter &* 9
        let lowercase = digits | letter << 5
        let aboveNine = ((nibbles &+ 0x7676_7676_7676_7676) & 0x8080_8080_8080_8080) >> 7
        let spelled = nibbles &+ 0x3030_3030_3030_3030 &+ aboveNine &* 39
        guard spelled == lowercase, nibbles & 0xF0F0_F0F0_F0F0_F0F0 == 0 else { return nil }
        // Each pair of digits into the low byte of its 16 bits, then the four bytes side by side.
        let pairs = (nibbles & 0x00FF_00FF_00FF_00FF) << 4 | (nibbles >> 8) & 0x00FF_00FF_00FF_00FF
        let halves = (pairs | pairs >> 8) & 0x0000_FFFF_0000_FFFF
        return (halves | halves >> 16) & 0xFFFF_FFFF
    }

    /// The key's 32 bytes, for the rare uses that need an array (a `bytea` bind, sealing contexts).
    var bytes: [UInt8] { withBytes { Array($0) } }

    /// `body` over the key's 32 bytes, in place.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withUnsafeBytes(of: words) { try body($0) }
    }

    /// The key as 64 lowercase hex digits (the `sessions.key` column's `encode(…, 'hex')`).
    var hex: String {
        String(unsafeUninitializedCapacity: 2 * Self.byteCount) { output in
            writeHex(into: UnsafeMutableRawBufferPointer(output))
            return 2 * Self.byteCount
        }
    }

    /// `body` over the key's 64 lowercase hex digits, written on the stack: how a batch writes a
    /// key into its parameters and notifications without a `String` per answer.
    func withHex<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        // Eight words: the 64 digits' room, a plain value on the stack.
        var digits: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        return try withUnsafeMutableBytes(of: &digits) { raw in
            writeHex(into: raw)
            return try body(UnsafeRawBufferPointer(raw))
        }
    }

    /// Writes the 64 hex digits into the first 64 bytes of `output`.
    private func writeHex(into output: UnsafeMutableRawBufferPointer) {
        withBytes { Hex.write($0, into: output) }
    }

    /// Two words of the key that ``hash(into:)`` does not use: a slot and a fingerprint for a
    /// table of its own (``NotifiedRevs``).
    var tableWords: (UInt64, UInt64) { (words.1, words.2) }

    /// The last word first: the first leads with the start's millisecond (``SessionID/key(of:)``),
    /// which keys of sessions started together share.
    static func == (lhs: SessionKey, rhs: SessionKey) -> Bool {
        lhs.words.3 == rhs.words.3 && lhs.words.2 == rhs.words.2 && lhs.words.1 == rhs.words.1
            && lhs.words.0 == rhs.words.0
    }

    /// The last word, all of it SHA-256 whatever the id's form: the first holds the start's
    /// millisecond in a current key's first 6 bytes.
    func hash(into hasher: inout Hasher) {
        hasher.combine(words.3)
    }
}
