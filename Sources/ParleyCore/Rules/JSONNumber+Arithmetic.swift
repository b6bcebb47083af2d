/// Exact divisibility on ``JSONNumber`` (docs/rules.md: numbers
/// compare exactly as decimals, never through binary floating point).
///
/// Cost is bounded by the digits as written, never by the exponent: a value
/// like `1e999999999` is handled without expanding its zeros, because whether
/// `b` divides `a × 10^e` only depends on `e` up to the number of factors 2 and
/// 5 in `b` (at most `4 × b.digits.count`).
extension JSONNumber {
    /// Whether `self` is an exact integer multiple of `divisor` (`divisor` > 0).
    /// Zero is a multiple of everything; a zero or negative divisor yields `false`.
    public func isMultiple(of divisor: JSONNumber) -> Bool {
        if divisor.isZero || divisor.isNegative { return false }
        if isZero { return true }
        // self / divisor = (a / b) × 10^shift, with a, b the significands.
        let shift = exponent - divisor.exponent
        if shift >= 0 {
            // b | a × 10^shift. Beyond the 2- and 5-adic valuation of b, more
            // zeros change nothing, so the shift is capped.
            let zeros = Int(Swift.min(shift, Int64(4 * divisor.digits.count + 4)))
            return DecimalDigits.remainderIsZero(dividend: digits, zeros: zeros, divisor: divisor.digits)
        }
        // b × 10^(-shift) | a: impossible when the divisor has more digits than a.
        let zeros = -shift
        if Int64(divisor.digits.count) + zeros > Int64(digits.count) { return false }
        let widened = divisor.digits + [UInt8](repeating: 0x30, count: Int(zeros))
        return DecimalDigits.remainderIsZero(dividend: digits, zeros: 0, divisor: widened)
    }
}

/// Remainders of ASCII-decimal integers, exact and allocation-light.
enum DecimalDigits {
    /// Whether `(dividend × 10^zeros) mod divisor == 0`; `divisor` is a normalised non-zero significand.
    static func remainderIsZero(dividend: [UInt8], zeros: Int, divisor: [UInt8]) -> Bool {
        if divisor.count <= 18 {
            var modulus: UInt64 = 0
            for digit in divisor { modulus = modulus * 10 + UInt64(digit - 0x30) }
            var remainder: UInt64 = 0
            // remainder < modulus < 10^18, so remainder × 10 + 9 < 2^64.
            for digit in dividend { remainder = (remainder * 10 + UInt64(digit - 0x30)) % modulus }
            for _ in 0..<zeros { remainder = (remainder * 10) % modulus }
            return remainder == 0
        }
        // Long division by the digits, with the expressions' base 10⁹ integers (one limb
        // arithmetic in ParleyCore): the remainder stays below 10 × modulus.
        let modulus = DecimalInteger(digits: divisor)
        var remainder = DecimalInteger()
        func step(_ digit: UInt32) {
            remainder.multiplyByTenAdding(digit)
            // remainder < 10 × modulus before this loop, so at most nine subtractions.
            while DecimalInteger.compare(remainder, modulus) >= 0 { remainder = remainder - modulus }
        }
        for digit in dividend { step(UInt32(digit - 0x30)) }
        for _ in 0..<zeros { step(0) }
        return remainder.isZero
    }
}
