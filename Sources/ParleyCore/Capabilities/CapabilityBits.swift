/// A fixed-size bit set over registry rows (bit *i* = ``CapabilityRegistry/entries``[*i*]).
///
/// Four inline words keep a ``CapabilitySet`` free of heap storage, so copying
/// one and testing a bit costs a few instructions on the gating hot path.
struct CapabilityBits: Sendable, Hashable {
    /// How many registry rows fit.
    static let capacity = 256

    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// The empty set.
    init() {}

    /// Whether bit `index` is set.
    @inline(__always)
    func contains(_ index: Int) -> Bool {
        let mask = UInt64(1) << UInt64(index & 63)
        switch index >> 6 {
        case 0: return words.0 & mask != 0
        case 1: return words.1 & mask != 0
        case 2: return words.2 & mask != 0
        default: return words.3 & mask != 0
        }
    }

    /// Sets or clears bit `index`.
    mutating func set(_ index: Int, _ value: Bool) {
        let mask = UInt64(1) << UInt64(index & 63)
        func apply(_ word: inout UInt64) { word = value ? word | mask : word & ~mask }
        switch index >> 6 {
        case 0: apply(&words.0)
        case 1: apply(&words.1)
        case 2: apply(&words.2)
        default: apply(&words.3)
        }
    }

    /// Number of bits set in both `self` and `other`'s complement, and vice versa.
    func differenceCount(_ other: CapabilityBits) -> Int {
        (words.0 ^ other.words.0).nonzeroBitCount + (words.1 ^ other.words.1).nonzeroBitCount
            + (words.2 ^ other.words.2).nonzeroBitCount + (words.3 ^ other.words.3).nonzeroBitCount
    }

    static func == (lhs: CapabilityBits, rhs: CapabilityBits) -> Bool {
        lhs.words == rhs.words
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
