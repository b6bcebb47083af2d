/// A non-negative sum kept only where it has digits: base 10⁹ limbs by position (limb `i`
/// weighs 10^(9i), `i` may be negative or huge). Adding `1e999999999` and `1` stores two limbs,
/// never the zeros between them, so an exact sum costs the operands' digits, not their exponents.
struct SparseLimbs {
    private var limbs: [Int64: UInt32] = [:]

    /// Adds the magnitude of `number`.
    mutating func add(_ number: JSONNumber) {
        // number = digits × 10^exponent; limb position p = ⌊exponent / 9⌋, shifted by the rest.
        let position = number.exponent >= 0 ? number.exponent / 9 : -((-number.exponent + 8) / 9)
        let shift = Int(number.exponent - 9 * position)
        let aligned = DecimalInteger(digits: number.digits, zeros: shift)
        for (offset, limb) in aligned.limbs.enumerated() where limb != 0 {
            var carry = UInt64(limb)
            var index = position + Int64(offset)
            while carry > 0 {
                let value = UInt64(limbs[index] ?? 0) + carry
                limbs[index] = UInt32(value % DecimalInteger.base)
                carry = value / DecimalInteger.base
                index += 1
            }
        }
    }

    /// The positions holding a non-zero limb, ascending.
    private var positions: [Int64] { limbs.compactMap { $0.value != 0 ? $0.key : nil }.sorted() }

    /// `lhs − rhs` as a number; `nil` when the result has too many digits to be a valid
    /// expression result (found without writing them out: a borrow across five empty limbs or
    /// non-zero limbs more than six apart span over 40 digits).
    static func difference(_ lhs: SparseLimbs, _ rhs: SparseLimbs) -> JSONNumber? {
        let keys = Array(Set(lhs.positions + rhs.positions)).sorted()
        var order = 0
        for key in keys.reversed() {
            let left = lhs.limbs[key] ?? 0
            let right = rhs.limbs[key] ?? 0
            if left != right {
                order = left < right ? -1 : 1
                break
            }
        }
        if order == 0 { return JSONNumber(0) }
        let (big, small) = order > 0 ? (lhs, rhs) : (rhs, lhs)
        var result: [(position: Int64, limb: UInt32)] = []
        var borrow: Int64 = 0
        var previous: Int64?
        for key in keys {
            if let previous, borrow == 1, key - previous > 1 {
                // Empty limbs under a borrow become 999999999 each.
                if key - previous - 1 >= 5 { return nil }
                for position in (previous + 1)..<key { result.append((position, 999_999_999)) }
            }
            var value = Int64(big.limbs[key] ?? 0) - Int64(small.limbs[key] ?? 0) - borrow
            borrow = 0
            if value < 0 {
                value += Int64(DecimalInteger.base)
                borrow = 1
            }
            if value != 0 { result.append((key, UInt32(value))) }
            previous = key
        }
        guard let low = result.first?.position, let high = result.last?.position else { return JSONNumber(0) }
        if high - low > 6 { return nil }
        var dense = [UInt32](repeating: 0, count: Int(high - low + 1))
        for entry in result { dense[Int(entry.position - low)] = entry.limb }
        let magnitude = DecimalInteger(limbs: dense)
        return JSONNumber(negative: order < 0, significand: magnitude.digits, exponent: 9 * low)
    }
}
