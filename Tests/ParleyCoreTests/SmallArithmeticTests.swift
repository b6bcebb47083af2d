import Testing

@testable import ParleyCore

/// Sums and products of small numbers take a one-word shortcut (issue 25's answer cost); these
/// checks hold it to the limb arithmetic it stands in for. Adding zero terms past nine, or factors
/// of `1` past 18 digits, changes no value but forces the limb path, so both are compared.
@Suite(.timeLimit(.minutes(2))) struct SmallArithmeticTests {
    /// A deterministic stream of decimals: up to `maximumDigits` digits, exponents −12…12, both signs.
    struct Numbers {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15

        mutating func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }

        mutating func number(maximumDigits: UInt64) -> JSONNumber? {
            let count = Int(next(maximumDigits)) + 1
            var text = next(2) == 0 ? "-" : ""
            text += String(next(9) + 1)
            for _ in 1..<count { text += String(next(10)) }
            text += "e\(Int(next(25)) - 12)"
            return JSONNumber(parsing: text)
        }
    }

    static func text(_ number: JSONNumber?) -> String? {
        number.flatMap(DecimalArithmetic.canonicalText)
    }

    @Test func smallSumsEqualTheLimbSum() throws {
        var numbers = Numbers()
        let zeros = [JSONNumber](repeating: JSONNumber(0), count: 8)
        for _ in 0..<5_000 {
            let (first, second) = (numbers.number(maximumDigits: 17), numbers.number(maximumDigits: 17))
            let terms = [try #require(first), try #require(second)]
            let fast = DecimalArithmetic.sum(terms)
            let limbs = DecimalArithmetic.sum(terms + zeros)
            #expect(Self.text(fast) == Self.text(limbs), "\(terms.map(\.description))")
        }
    }

    @Test func smallProductsEqualTheLimbProduct() throws {
        var numbers = Numbers()
        for _ in 0..<5_000 {
            let (first, second) = (numbers.number(maximumDigits: 9), numbers.number(maximumDigits: 9))
            let factors = [try #require(first), try #require(second)]
            let digits = factors.reduce(0) { $0 + $1.digits.count }
            let ones = [JSONNumber](repeating: JSONNumber(1), count: Swift.max(19 - digits, 0))
            let fast = DecimalArithmetic.product(factors)
            let limbs = DecimalArithmetic.product(factors + ones)
            #expect(Self.text(fast) == Self.text(limbs), "\(factors.map(\.description))")
        }
    }

    @Test func theLargestShortcutOperandsAreExact() {
        let seventeenNines = JSONNumber(parsing: "99999999999999999")!
        #expect(Self.text(DecimalArithmetic.sum([seventeenNines, seventeenNines])) == "199999999999999998")
        let nineNines = JSONNumber(parsing: "999999999")!
        #expect(Self.text(DecimalArithmetic.product([nineNines, nineNines])) == "999999998000000001")
        #expect(Self.text(DecimalArithmetic.sum([JSONNumber(parsing: "0.1")!, JSONNumber(parsing: "0.2")!])) == "0.3")
        #expect(
            Self.text(DecimalArithmetic.sum([JSONNumber(parsing: "1e-18")!, JSONNumber(parsing: "-1e-18")!])) == "0")
    }
}
