/// A non-negative integer in base 10⁹ limbs, least significant first, whose limbs line up with
/// decimal digits: converting from and to ASCII digits is linear, unlike a binary big integer.
/// Just what exact expression arithmetic needs (docs/expressions.md).
struct DecimalInteger: Equatable {
    static let base: UInt64 = 1_000_000_000
    /// Limbs, least significant first; no most-significant zero limb (zero is `[]`).
    private(set) var limbs: [UInt32]

    init() { limbs = [] }

    init(limbs: [UInt32]) {
        self.limbs = limbs
        trim()
    }

    /// From ASCII digits (most significant first) followed by `zeros` zeros.
    init(digits: some Collection<UInt8>, zeros: Int = 0) {
        let head = zeros % 9
        let wholeZeroLimbs = zeros / 9
        // The number is digits × 10^head, then wholeZeroLimbs zero limbs below it. Limbs are read
        // most significant first (the first one holds what is left over from groups of nine),
        // without copying the digits: every answer's arithmetic goes through here.
        let total = digits.count + head
        var high: [UInt32] = []
        high.reserveCapacity(total / 9 + 1)
        var left = total % 9 == 0 ? 9 : total % 9
        var limb: UInt32 = 0
        for digit in digits {
            limb = limb &* 10 &+ UInt32(digit &- 0x30)
            left -= 1
            if left == 0 {
                high.append(limb)
                limb = 0
                left = 9
            }
        }
        for _ in 0..<head {
            limb = limb &* 10
            left -= 1
            if left == 0 {
                high.append(limb)
                limb = 0
                left = 9
            }
        }
        var result = [UInt32](repeating: 0, count: wholeZeroLimbs)
        result.reserveCapacity(wholeZeroLimbs + high.count)
        result.append(contentsOf: high.reversed())
        limbs = result
        trim()
    }

    var isZero: Bool { limbs.isEmpty }

    /// ASCII digits, most significant first (`"0"` for zero), written straight from the limbs
    /// (no intermediate strings).
    var digits: [UInt8] {
        guard let top = limbs.last else { return [0x30] }
        var result: [UInt8] = []
        result.reserveCapacity(9 * limbs.count)
        var width = 1
        var power: UInt32 = 10
        while width < 9, top >= power {
            width += 1
            power &*= 10
        }
        Self.append(top, width: width, to: &result)
        for index in stride(from: limbs.count - 2, through: 0, by: -1) {
            Self.append(limbs[index], width: 9, to: &result)
        }
        return result
    }

    /// Appends `limb`'s last `width` decimal digits, most significant first (zero-padded).
    private static func append(_ limb: UInt32, width: Int, to result: inout [UInt8]) {
        let start = result.count
        result.append(contentsOf: repeatElement(0x30, count: width))
        var value = limb
        var index = start + width - 1
        while index >= start {
            result[index] = 0x30 &+ UInt8(truncatingIfNeeded: value % 10)
            value /= 10
            index -= 1
        }
    }

    private mutating func trim() {
        while let last = limbs.last, last == 0 { limbs.removeLast() }
    }

    static func compare(_ lhs: DecimalInteger, _ rhs: DecimalInteger) -> Int {
        if lhs.limbs.count != rhs.limbs.count { return lhs.limbs.count < rhs.limbs.count ? -1 : 1 }
        var index = lhs.limbs.count - 1
        while index >= 0 {
            if lhs.limbs[index] != rhs.limbs[index] { return lhs.limbs[index] < rhs.limbs[index] ? -1 : 1 }
            index -= 1
        }
        return 0
    }

    static func + (lhs: DecimalInteger, rhs: DecimalInteger) -> DecimalInteger {
        var result = [UInt32]()
        result.reserveCapacity(Swift.max(lhs.limbs.count, rhs.limbs.count) + 1)
        var carry: UInt64 = 0
        for index in 0..<Swift.max(lhs.limbs.count, rhs.limbs.count) {
            let left = index < lhs.limbs.count ? UInt64(lhs.limbs[index]) : 0
            let right = index < rhs.limbs.count ? UInt64(rhs.limbs[index]) : 0
            let sum = left + right + carry
            result.append(UInt32(sum % base))
            carry = sum / base
        }
        if carry > 0 { result.append(UInt32(carry)) }
        return DecimalInteger(limbs: result)
    }

    /// `lhs − rhs`; requires `lhs ≥ rhs`.
    static func - (lhs: DecimalInteger, rhs: DecimalInteger) -> DecimalInteger {
        var result = lhs.limbs
        var borrow: Int64 = 0
        for index in result.indices {
            var value = Int64(result[index]) - borrow - (index < rhs.limbs.count ? Int64(rhs.limbs[index]) : 0)
            borrow = 0
            if value < 0 {
                value += Int64(base)
                borrow = 1
            }
            result[index] = UInt32(value)
            if borrow == 0 && index >= rhs.limbs.count { break }
        }
        return DecimalInteger(limbs: result)
    }

    /// Schoolbook product: `O(lhs.limbs × rhs.limbs)`; callers bound the sizes.
    static func * (lhs: DecimalInteger, rhs: DecimalInteger) -> DecimalInteger {
        if lhs.isZero || rhs.isZero { return DecimalInteger() }
        var result = [UInt64](repeating: 0, count: lhs.limbs.count + rhs.limbs.count + 1)
        for (i, left) in lhs.limbs.enumerated() {
            var carry: UInt64 = 0
            let left = UInt64(left)
            for (j, right) in rhs.limbs.enumerated() {
                // < 10^18 + 10^9 + 10^9: fits in 64 bits.
                let value = result[i + j] + left * UInt64(right) + carry
                result[i + j] = value % base
                carry = value / base
            }
            var position = i + rhs.limbs.count
            while carry > 0 {
                let value = result[position] + carry
                result[position] = value % base
                carry = value / base
                position += 1
            }
        }
        return DecimalInteger(limbs: result.map { UInt32($0) })
    }

    /// `self × 10 + digit` (`digit` < 10).
    mutating func multiplyByTenAdding(_ digit: UInt32) {
        var carry = UInt64(digit)
        for index in limbs.indices {
            let value = UInt64(limbs[index]) * 10 + carry
            limbs[index] = UInt32(value % Self.base)
            carry = value / Self.base
        }
        if carry > 0 { limbs.append(UInt32(carry)) }
    }

    /// Adds one (for rounding up).
    mutating func increment() {
        self = self + DecimalInteger(limbs: [1])
    }

    /// Whether the value is odd.
    var isOdd: Bool { (limbs.first ?? 0) % 2 == 1 }

    /// Quotient and remainder when the quotient is known to be short: the long division walks
    /// only the dividend digits past the divisor's length, each step costing one pass over the
    /// divisor, so the work is `O(quotient digits × divisor limbs)` plus reading the dividend —
    /// linear when the quotient is a few dozen digits (as exact division's always is).
    static func divide(_ dividend: [UInt8], by divisor: DecimalInteger) -> (
        quotient: [UInt8], remainder: DecimalInteger
    ) {
        let divisorDigits = divisor.digits.count
        guard dividend.count >= divisorDigits else {
            return ([0x30], DecimalInteger(digits: dividend))
        }
        let headLength = divisorDigits - 1
        var remainder = DecimalInteger(digits: dividend[0..<headLength])
        var quotient: [UInt8] = []
        quotient.reserveCapacity(dividend.count - headLength)
        for index in headLength..<dividend.count {
            remainder.multiplyByTenAdding(UInt32(dividend[index] &- 0x30))
            var digit: UInt8 = 0
            while compare(remainder, divisor) >= 0 {
                remainder = remainder - divisor
                digit += 1
            }
            if digit > 0 || !quotient.isEmpty { quotient.append(0x30 + digit) }
        }
        return (quotient.isEmpty ? [0x30] : quotient, remainder)
    }
}
