/// A small exact decimal for building numeric samples next to a rule's bound
/// (`5` → `4`, `6`; `0.0075` → `0.0074`, `0.0076`). Not a general arithmetic
/// type: only the few operations boundary values need, never floating point.
struct SampleDecimal: Equatable {
    /// Largest scale (digits after the point) or integer exponent worth expanding for a sample.
    static let maximumDigits = 40

    /// Whether the value is below zero.
    var isNegative: Bool
    /// Magnitude as decimal digits, least significant first, scaled by 10^-scale.
    var digits: [Int]
    /// Digits after the decimal point.
    var scale: Int

    /// The bound as an exact decimal, or `nil` when its exponent is too large to write out.
    init?(_ number: JSONNumber) {
        guard abs(number.exponent) <= Self.maximumDigits, number.digits.count <= Self.maximumDigits else { return nil }
        isNegative = number.isNegative
        digits = number.digits.reversed().map { Int($0) - 0x30 }
        if number.exponent >= 0 {
            digits.insert(contentsOf: [Int](repeating: 0, count: number.exponent), at: 0)
            scale = 0
        } else {
            scale = -number.exponent
        }
    }

    init(isNegative: Bool, digits: [Int], scale: Int) {
        self.isNegative = isNegative
        self.digits = digits
        self.scale = scale
    }

    /// One unit in the last place of `self` (1 for integers).
    var unit: SampleDecimal { SampleDecimal(isNegative: false, digits: [1], scale: scale) }

    /// `self` with `count` more digits after the point (same value).
    func widened(by count: Int) -> SampleDecimal {
        SampleDecimal(isNegative: isNegative, digits: [Int](repeating: 0, count: count) + digits, scale: scale + count)
    }

    /// `self + other`, exactly.
    func adding(_ other: SampleDecimal) -> SampleDecimal {
        let scale = max(self.scale, other.scale)
        let left = widened(by: scale - self.scale)
        let right = other.widened(by: scale - other.scale)
        if left.isNegative == right.isNegative {
            return SampleDecimal(isNegative: left.isNegative, digits: Self.add(left.digits, right.digits), scale: scale)
        }
        // Opposite signs: subtract the smaller magnitude from the larger.
        if Self.compare(left.digits, right.digits) >= 0 {
            return SampleDecimal(
                isNegative: left.isNegative, digits: Self.subtract(left.digits, right.digits), scale: scale)
        }
        return SampleDecimal(
            isNegative: right.isNegative, digits: Self.subtract(right.digits, left.digits), scale: scale)
    }

    /// `self - other`, exactly.
    func subtracting(_ other: SampleDecimal) -> SampleDecimal {
        var negated = other
        negated.isNegative.toggle()
        return adding(negated)
    }

    /// `self × factor` for a small integer factor.
    func multiplied(by factor: Int) -> SampleDecimal {
        var result: [Int] = []
        var carry = 0
        for digit in digits {
            let value = digit * abs(factor) + carry
            result.append(value % 10)
            carry = value / 10
        }
        while carry > 0 {
            result.append(carry % 10)
            carry /= 10
        }
        return SampleDecimal(isNegative: isNegative != (factor < 0), digits: result, scale: scale)
    }

    /// the number grammar of docs/rules.md: `-?(0|[1-9][0-9]*)(\.[0-9]+)?`, trailing fraction zeros dropped.
    var text: String {
        var digits = self.digits
        var scale = self.scale
        while scale > 0, digits.first == 0 {
            digits.removeFirst()
            scale -= 1
        }
        while digits.count <= scale { digits.append(0) }
        while digits.count > scale + 1, digits.last == 0 { digits.removeLast() }
        let integer = digits[scale...].reversed().map(String.init).joined()
        let fraction = digits[..<scale].reversed().map(String.init).joined()
        let isZero = digits.allSatisfy { $0 == 0 }
        return (isNegative && !isZero ? "-" : "") + integer + (fraction.isEmpty ? "" : "." + fraction)
    }

    private static func add(_ left: [Int], _ right: [Int]) -> [Int] {
        var result: [Int] = []
        var carry = 0
        for index in 0..<max(left.count, right.count) {
            let value = (index < left.count ? left[index] : 0) + (index < right.count ? right[index] : 0) + carry
            result.append(value % 10)
            carry = value / 10
        }
        if carry > 0 { result.append(carry) }
        return result
    }

    /// `left - right` for magnitudes with `left >= right`.
    private static func subtract(_ left: [Int], _ right: [Int]) -> [Int] {
        var result: [Int] = []
        var borrow = 0
        for index in 0..<left.count {
            var value = left[index] - borrow - (index < right.count ? right[index] : 0)
            borrow = 0
            if value < 0 {
                value += 10
                borrow = 1
            }
            result.append(value)
        }
        return result
    }

    private static func compare(_ left: [Int], _ right: [Int]) -> Int {
        let count = max(left.count, right.count)
        for index in stride(from: count - 1, through: 0, by: -1) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            if a != b { return a < b ? -1 : 1 }
        }
        return 0
    }
}
