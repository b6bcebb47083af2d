/// A character class of an I-Regexp: scalar ranges, general categories
/// (`\p{…}`) and complemented categories (`\P{…}`), possibly negated (`[^…]`).
struct IRegexpScalarSet: Sendable, Equatable {
    /// Sorted, merged inclusive ranges of scalar values.
    private(set) var ranges: [ClosedRange<UInt32>] = []
    /// Union of `\p{…}` categories, as a bit mask over ``GeneralCategoryMask``.
    private(set) var categories: UInt32 = 0
    /// Each `\P{…}` item: a scalar is in the set when its category is outside the mask.
    private(set) var complementedCategories: [UInt32] = []
    /// `[^…]`.
    var isNegated = false
    /// Membership of U+0000…U+003F and U+0040…U+007F, precomputed so ASCII input never walks the ranges.
    private(set) var asciiMembership: (UInt64, UInt64) = (0, 0)

    /// `.`: anything but U+000A and U+000D (RFC 9485 §5.3, XSD's `[^\n\r]`).
    static let dot: IRegexpScalarSet = {
        var set = IRegexpScalarSet()
        set.add(0x0A...0x0A)
        set.add(0x0D...0x0D)
        set.isNegated = true
        set.finish()
        return set
    }()

    /// A set holding one category escape.
    static func category(_ mask: UInt32, complemented: Bool) -> IRegexpScalarSet {
        var set = IRegexpScalarSet()
        set.addCategory(mask, complemented: complemented)
        set.finish()
        return set
    }

    mutating func add(_ range: ClosedRange<UInt32>) {
        ranges.append(range)
    }

    mutating func addCategory(_ mask: UInt32, complemented: Bool) {
        if complemented { complementedCategories.append(mask) } else { categories |= mask }
    }

    /// Sorts and merges ranges and fills the ASCII table; call once after adding.
    mutating func finish() {
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        ranges = merged
        var ascii: (UInt64, UInt64) = (0, 0)
        for value in UInt32(0)..<128 where slowContains(Unicode.Scalar(UInt8(value))) {
            if value < 64 { ascii.0 |= 1 << UInt64(value) } else { ascii.1 |= 1 << UInt64(value - 64) }
        }
        asciiMembership = ascii
    }

    /// Whether the scalar belongs to the class.
    @inline(__always)
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 64 { return asciiMembership.0 & (1 << UInt64(value)) != 0 }
        if value < 128 { return asciiMembership.1 & (1 << UInt64(value - 64)) != 0 }
        return slowContains(scalar)
    }

    private func slowContains(_ scalar: Unicode.Scalar) -> Bool {
        var found = rangesContain(scalar.value)
        if !found, categories != 0 || !complementedCategories.isEmpty {
            let bit =
                scalar.value < 128
                ? GeneralCategoryMask.asciiBits[Int(scalar.value)] : GeneralCategoryMask.bit(of: scalar)
            found = categories & bit != 0 || complementedCategories.contains { $0 & bit == 0 }
        }
        return found != isNegated
    }

    private func rangesContain(_ value: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].upperBound < value {
                low = mid + 1
            } else if ranges[mid].lowerBound > value {
                high = mid
            } else {
                return true
            }
        }
        return false
    }

    static func == (lhs: IRegexpScalarSet, rhs: IRegexpScalarSet) -> Bool {
        lhs.ranges == rhs.ranges && lhs.categories == rhs.categories
            && lhs.complementedCategories == rhs.complementedCategories && lhs.isNegated == rhs.isNegated
    }
}
