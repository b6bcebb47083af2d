/// Exact decimal arithmetic for expressions (docs/expressions.md), over the same
/// ``JSONNumber`` the rule interpreter compares. Every operation is total and bounded: `nil`
/// means *empty* (a result beyond ``ExpressionLimits``, a division by zero, a bad scale).
///
/// Work never depends on an exponent's magnitude: `1e999999999` is never expanded. Sums keep
/// limbs only where operands have digits (a sparse sum), products and quotients first decide
/// from digit counts and exponents whether the result can fit in 40 significant digits.
enum DecimalArithmetic {
    /// The sum of `terms`, exact.
    static func sum(_ terms: [JSONNumber]) -> JSONNumber? {
        if let small = smallSum(terms) { return small }
        var positive = SparseLimbs()
        var negative = SparseLimbs()
        for term in terms where !term.isZero {
            if term.isNegative { negative.add(term) } else { positive.add(term) }
        }
        return SparseLimbs.difference(positive, negative)
    }

    /// `lhs − rhs`, exact.
    static func difference(_ lhs: JSONNumber, _ rhs: JSONNumber) -> JSONNumber? {
        sum([lhs, rhs.negated])
    }

    /// The product of `factors`, exact (`1` for none).
    static func product(_ factors: [JSONNumber]) -> JSONNumber? {
        if factors.contains(where: { $0.isZero }) { return JSONNumber(0) }
        var negative = false
        var exponent: Int64 = 0
        var digitCount = 0
        var endsInFive = false
        var endsEven = false
        for factor in factors {
            if factor.isNegative { negative.toggle() }
            exponent += factor.exponent
            digitCount += factor.digits.count
            let last = factor.digits[factor.digits.count - 1] &- 0x30
            if last == 5 { endsInFive = true }
            if last % 2 == 0 { endsEven = true }
        }
        if !(endsInFive && endsEven) {
            // No trailing zero can appear: the product's digits are at least this many, and
            // its exponent is exactly `exponent`.
            let leastDigits = digitCount - Swift.max(factors.count - 1, 0)
            if leastDigits > ExpressionLimits.maximumSignificantDigits { return nil }
            if exponent >= 0, Int64(leastDigits) + exponent > Int64(ExpressionLimits.maximumSignificantDigits) {
                return nil
            }
            if -exponent > Int64(ExpressionLimits.maximumFractionDigits) { return nil }
        } else if digitCount > ExpressionLimits.maximumProductDigits {
            return nil
        }
        if digitCount <= 18 {
            // Small factors (what answers usually are): the product is below 10^18, so one
            // machine word holds it exactly, and the digits are the same as the limbs' would be.
            var significand: UInt64 = 1
            for factor in factors { significand &*= Self.word(factor.digits, zeros: 0) }
            return JSONNumber(negative: negative, significand: Self.digits(of: significand), exponent: exponent)
        }
        var significand = DecimalInteger(limbs: [1])
        for factor in factors { significand = significand * DecimalInteger(digits: factor.digits) }
        return JSONNumber(negative: negative, significand: significand.digits, exponent: exponent)
    }

    /// The sum in one machine word when every term, aligned to the smallest exponent, has at most
    /// 17 digits and there are at most nine terms (so the total stays below 9 × 10^17); `nil`
    /// otherwise, for the sparse sum. Exactly the value the sparse sum gives, just without limbs.
    private static func smallSum(_ terms: [JSONNumber]) -> JSONNumber? {
        guard terms.count <= 9 else { return nil }
        var lowest = Int64.max
        for term in terms where !term.isZero {
            guard (-18...18).contains(term.exponent), term.digits.count <= 17 else { return nil }
            lowest = Swift.min(lowest, term.exponent)
        }
        guard lowest != Int64.max else { return JSONNumber(0) }
        var total: Int64 = 0
        for term in terms where !term.isZero {
            let zeros = Int(term.exponent - lowest)
            guard term.digits.count + zeros <= 17 else { return nil }
            let magnitude = Int64(word(term.digits, zeros: zeros))
            total += term.isNegative ? -magnitude : magnitude
        }
        if total == 0 { return JSONNumber(0) }
        return JSONNumber(negative: total < 0, significand: digits(of: total.magnitude), exponent: lowest)
    }

    /// ASCII digits followed by `zeros` zeros as a number; callers keep it under 19 digits.
    private static func word(_ digits: [UInt8], zeros: Int) -> UInt64 {
        var value: UInt64 = 0
        for digit in digits { value = value &* 10 &+ UInt64(digit &- 0x30) }
        for _ in 0..<zeros { value &*= 10 }
        return value
    }

    /// The ASCII digits of `value`, most significant first (`"0"` for zero).
    private static func digits(of value: UInt64) -> [UInt8] {
        var reversed: [UInt8] = []
        reversed.reserveCapacity(20)
        var rest = value
        repeat {
            reversed.append(0x30 &+ UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        } while rest > 0
        return reversed.reversed()
    }

    /// `lhs ÷ rhs` rounded half to even to `scale` decimals; `nil` for a zero divisor or a scale
    /// outside 0…``ExpressionLimits/maximumScale``.
    static func quotient(_ lhs: JSONNumber, _ rhs: JSONNumber, scale: Int) -> JSONNumber? {
        guard (0...ExpressionLimits.maximumScale).contains(scale), !rhs.isZero else { return nil }
        if lhs.isZero { return JSONNumber(0) }
        let magnitude = lhs.adjustedExponent - rhs.adjustedExponent
        // |lhs / rhs| lies in (10^(magnitude − 1), 10^(magnitude + 1)).
        if magnitude - 1 >= Int64(ExpressionLimits.maximumSignificantDigits) { return nil }
        if magnitude + 1 <= -Int64(scale) - 1 { return JSONNumber(0) }
        // |lhs| × 10^scale / |rhs| = (a × 10^shift) / b over the significands.
        // Bounded by the digit counts: the magnitude checks above keep it small.
        let shift = Int(lhs.exponent + Int64(scale) - rhs.exponent)
        var dividend = lhs.digits
        if shift > 0 { dividend.append(contentsOf: repeatElement(0x30, count: shift)) }
        let divisor = DecimalInteger(digits: rhs.digits, zeros: Swift.max(-shift, 0))
        let (quotient, remainder) = DecimalInteger.divide(dividend, by: divisor)
        var rounded = DecimalInteger(digits: quotient)
        let half = DecimalInteger.compare(remainder + remainder, divisor)
        if half > 0 || (half == 0 && rounded.isOdd) { rounded.increment() }
        return JSONNumber(
            negative: lhs.isNegative != rhs.isNegative, significand: rounded.digits, exponent: -Int64(scale))
    }

    /// `value` rounded half to even to `scale` decimals; `nil` for a scale outside 0…20.
    static func rounded(_ value: JSONNumber, scale: Int) -> JSONNumber? {
        guard (0...ExpressionLimits.maximumScale).contains(scale) else { return nil }
        if value.isZero || value.exponent >= -Int64(scale) { return value }
        let count = value.digits.count
        // Below a tenth of the last kept place: rounds to zero.
        if -Int64(scale) - value.exponent > Int64(count) { return JSONNumber(0) }
        let dropped = Int(-Int64(scale) - value.exponent)
        let kept = value.digits[0..<(count - dropped)]
        let first = value.digits[count - dropped] &- 0x30
        // Digits are normalised (the last is not 0), so anything after the first dropped digit is non-zero.
        let restNonZero = dropped > 1
        var result = DecimalInteger(digits: kept)
        if first > 5 || (first == 5 && (restNonZero || result.isOdd)) { result.increment() }
        return JSONNumber(negative: value.isNegative, significand: result.digits, exponent: -Int64(scale))
    }

    /// The canonical text of an arithmetic result (docs/expressions.md): plain decimal, no
    /// exponent, no `+`, no trailing zeros after the point, no lone point, `0` for zero (never
    /// `-0`); `nil` when it has more than 40 significant digits or 40 digits after the point.
    static func canonicalText(_ number: JSONNumber) -> String? {
        if number.isZero { return "0" }
        let digits = number.digits
        let exponent = number.exponent
        let limit = Int64(ExpressionLimits.maximumSignificantDigits)
        var text: [UInt8] = number.isNegative ? [0x2D] : []
        if exponent >= 0 {
            guard Int64(digits.count) + exponent <= limit else { return nil }
            text += digits
            text.append(contentsOf: repeatElement(0x30, count: Int(exponent)))
        } else {
            guard Int64(digits.count) <= limit, -exponent <= Int64(ExpressionLimits.maximumFractionDigits) else {
                return nil
            }
            let integerDigits = digits.count + Int(exponent)
            if integerDigits > 0 {
                text += digits[0..<integerDigits]
                text.append(0x2E)
                text += digits[integerDigits...]
            } else {
                text += [0x30, 0x2E]
                text.append(contentsOf: repeatElement(0x30, count: -integerDigits))
                text += digits
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension JSONNumber {
    /// The same magnitude with the other sign (zero stays zero).
    var negated: JSONNumber {
        JSONNumber(negative: !isNegative, significand: digits, exponent: exponent)
    }
}
