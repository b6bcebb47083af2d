import ParleyCore
import Testing

/// Property tests with fixed seeds: the parser and matcher never crash on
/// random input, and the Pike VM agrees with an exhaustive reference matcher.
@Suite(.timeLimit(.minutes(10))) struct IRegexpPropertyTests {
    @Test func matcherAgreesWithExhaustiveReference() throws {
        var random = SplitMix64(seed: 0x5EED_1234)
        var cases = 0
        for _ in 0..<2_000 {
            let node = ReferencePattern.random(&random, depth: 3, allowRange: true)
            let regexp = try IRegexp(node.pattern)
            for _ in 0..<6 {
                let length = Int(random.next() % 7)
                let input = String(
                    String.UnicodeScalarView(
                        (0..<length).map { _ in ReferencePattern.alphabet.randomElement(using: &random)! }))
                let expected = node.ends(Array(input.unicodeScalars), from: 0).contains(input.unicodeScalars.count)
                #expect(
                    regexp.matches(input) == expected,
                    "pattern \(node.pattern) on \(input.unicodeScalars.map { $0.value }) should be \(expected)")
                cases += 1
            }
        }
        #expect(cases >= 10_000)
    }

    @Test func randomPatternsNeverCrashTheParserOrMatcher() {
        var random = SplitMix64(seed: 42)
        let pieces: [String] = [
            "a", "b", ".", "(", ")", "[", "]", "^", "$", "-", "|", "*", "+", "?", "{", "}", ",", "0", "1", "2", "9",
            "\\", "p", "P", "L", "u", "n", "d", "é", "😀", "\u{0}", "\n", "{1,2}", "{3}", "\\p{L}", "[^a]", "[a-z]",
        ]
        var accepted = 0
        for _ in 0..<10_000 {
            let length = Int(random.next() % 12)
            let pattern = (0..<length).map { _ in pieces.randomElement(using: &random)! }.joined()
            switch Result(catching: { () throws(IRegexpSyntaxError) -> IRegexp in try IRegexp(pattern) }) {
            case .success(let regexp):
                accepted += 1
                for input in ["", "a", "ab\n", "😀é", String(repeating: "ab", count: 20)] { _ = regexp.matches(input) }
            case .failure(let error):
                #expect(error.position >= 0 && error.position <= pattern.unicodeScalars.count, "\(pattern): \(error)")
                #expect(!error.reason.isEmpty)
            }
        }
        #expect(accepted > 100, "the generator should produce some valid patterns")
    }
}

/// An I-Regexp as a tree built by the test, independent of the parser, with
/// an exhaustive matcher: the set of every end position reachable from a start.
indirect enum ReferencePattern {
    case literal(Unicode.Scalar)
    case dot
    case set([Unicode.Scalar], negated: Bool)
    case sequence([ReferencePattern])
    case choice([ReferencePattern])
    case repeated(ReferencePattern, min: Int, max: Int?, range: Bool)

    static let alphabet: [Unicode.Scalar] = ["a", "b", "\n"]

    static func random(_ random: inout SplitMix64, depth: Int, allowRange: Bool) -> ReferencePattern {
        let pick = depth == 0 ? random.next() % 3 : random.next() % 7
        switch pick {
        case 0: return .literal(random.next() % 2 == 0 ? "a" : "b")
        case 1: return .dot
        case 2: return .set(random.next() % 2 == 0 ? ["a"] : ["a", "b"], negated: random.next() % 3 == 0)
        case 3, 4:
            let count = Int(random.next() % 3) + 1
            return .sequence((0..<count).map { _ in Self.random(&random, depth: depth - 1, allowRange: allowRange) })
        case 5:
            let count = Int(random.next() % 2) + 2
            return .choice((0..<count).map { _ in Self.random(&random, depth: depth - 1, allowRange: allowRange) })
        default:
            let kind = random.next() % (allowRange ? 5 : 3)
            let inner = Self.random(&random, depth: depth - 1, allowRange: allowRange && kind < 3)
            switch kind {
            case 0: return .repeated(inner, min: 0, max: nil, range: false)
            case 1: return .repeated(inner, min: 1, max: nil, range: false)
            case 2: return .repeated(inner, min: 0, max: 1, range: false)
            case 3:
                let low = Int(random.next() % 3)
                return .repeated(inner, min: low, max: low + Int(random.next() % 3), range: true)
            default: return .repeated(inner, min: Int(random.next() % 3), max: nil, range: true)
            }
        }
    }

    /// The pattern text (every compound atom parenthesised).
    var pattern: String {
        switch self {
        case .literal(let scalar): return String(Character(scalar))
        case .dot: return "."
        case .set(let scalars, let negated):
            return "[" + (negated ? "^" : "") + scalars.map { String(Character($0)) }.joined() + "]"
        case .sequence(let parts): return parts.map(\.pattern).joined()
        case .choice(let parts): return "(" + parts.map(\.pattern).joined(separator: "|") + ")"
        case .repeated(let inner, let min, let max, let range):
            let quantifier: String
            switch (min, max, range) {
            case (0, nil, false): quantifier = "*"
            case (1, nil, false): quantifier = "+"
            case (0, 1, false): quantifier = "?"
            case (_, nil, _): quantifier = "{\(min),}"
            case (_, let max?, _): quantifier = min == max ? "{\(min)}" : "{\(min),\(max)}"
            }
            return "(" + inner.pattern + ")" + quantifier
        }
    }

    func ends(_ input: [Unicode.Scalar], from start: Int) -> Set<Int> {
        ends(input, from: [start])
    }

    private func ends(_ input: [Unicode.Scalar], from starts: Set<Int>) -> Set<Int> {
        switch self {
        case .literal(let scalar):
            return Set(starts.filter { $0 < input.count && input[$0] == scalar }.map { $0 + 1 })
        case .dot:
            return Set(starts.filter { $0 < input.count && input[$0] != "\n" && input[$0] != "\r" }.map { $0 + 1 })
        case .set(let scalars, let negated):
            return Set(starts.filter { $0 < input.count && scalars.contains(input[$0]) != negated }.map { $0 + 1 })
        case .sequence(let parts):
            return parts.reduce(starts) { positions, part in part.ends(input, from: positions) }
        case .choice(let parts):
            return parts.reduce(into: Set<Int>()) { $0.formUnion($1.ends(input, from: starts)) }
        case .repeated(let inner, let min, let max, _):
            var positions = starts
            for _ in 0..<min { positions = inner.ends(input, from: positions) }
            var result = positions
            var frontier = positions
            var rounds = 0
            while !frontier.isEmpty, max.map({ rounds < $0 - min }) ?? true {
                frontier = inner.ends(input, from: frontier).subtracting(max == nil ? result : [])
                result.formUnion(frontier)
                rounds += 1
            }
            return result
        }
    }
}
