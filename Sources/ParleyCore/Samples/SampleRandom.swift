/// SplitMix64: a tiny seeded generator, so `parley samples --seed N` gives the
/// same bytes on every platform and run (the standard library's generator is
/// seeded per process and may change between releases).
public struct SampleRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose whole output is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A position in `0..<count` (`count` > 0), without modulo bias worth caring about for samples.
    mutating func index(below count: Int) -> Int {
        Int(next() % UInt64(count))
    }
}

/// Scalars samples are made of: visible ASCII first (what a tester can read
/// and type), then a few beyond ASCII for classes that need them.
enum SampleAlphabet {
    /// Letters, digits and visible punctuation.
    static let visible: [Unicode.Scalar] = Array(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.@!#~+=".unicodeScalars)
    /// Beyond visible ASCII: space, Latin-1, Greek, CJK, an emoji.
    static let wider: [Unicode.Scalar] = Array(" éßΩж中😀".unicodeScalars)
    /// The rest of ASCII punctuation: what classes that exclude markup or quotes refuse.
    static let punctuation: [Unicode.Scalar] = Array("<>\"'&%$*()[]{}|\\/:;,?^`".unicodeScalars)
    /// Letters only, for fillers of fields with no shape.
    static let letters: [Unicode.Scalar] = Array("abcdefghijklmnopqrstuvwxyz".unicodeScalars)
}
