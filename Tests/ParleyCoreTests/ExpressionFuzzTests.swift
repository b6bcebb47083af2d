import ParleyCore
import Testing

/// Random and hostile expressions never crash, never recurse without bound and stay cheap
/// (DESIGN.md "Expressions": total, linear). Timing is never asserted; the suite's time limit
/// catches a blow-up.
@Suite(.timeLimit(.minutes(2))) struct ExpressionFuzzTests {
    static let hostileNumbers = [
        "1e999999999", "-1e999999999", "1e-999999999", "1e1000000000000", "1e1000000000001", "0.000", "-0",
        String(repeating: "9", count: 5_000), "0." + String(repeating: "3", count: 5_000),
        String(repeating: "5", count: 3_000), String(repeating: "2", count: 3_000) + "e-2999", "", " ", "x", "1e",
    ]

    static func expression(_ random: inout SplitMix64, depth: Int) -> Expression {
        let fields = ["a", "b", "c"]
        if depth >= 5 || random.next() % 3 == 0 {
            return random.next() % 2 == 0
                ? .field(fields[Int(random.next() % 3)])
                : .literal(hostileNumbers[Int(random.next() % UInt64(hostileNumbers.count))])
        }
        func parts() -> [Expression] {
            (0..<Int(random.next() % 4)).map { _ in expression(&random, depth: depth + 1) }
        }
        switch random.next() % 11 {
        case 0: return .add(parts())
        case 1: return .sub(expression(&random, depth: depth + 1), expression(&random, depth: depth + 1))
        case 2: return .mul(parts())
        case 3:
            return .div(
                expression(&random, depth: depth + 1), expression(&random, depth: depth + 1),
                scale: Int(random.next() % 25) - 2)
        case 4: return .round(expression(&random, depth: depth + 1), scale: Int(random.next() % 25) - 2)
        case 5: return .min(parts())
        case 6: return .max(parts())
        case 7: return .concat(parts())
        case 8: return .count(fields)
        case 9:
            return .if(
                .compare(.field("a"), .greaterThan, bound: hostileNumbers[Int(random.next() % 4)]),
                then: expression(&random, depth: depth + 1), else: expression(&random, depth: depth + 1))
        default: return .unknown(["sum": "x"])
        }
    }

    @Test func randomHostileExpressionsEvaluateToCanonicalValues() {
        var random = SplitMix64(seed: 25)
        for round in 0..<3_000 {
            var answers = Answers()
            for field in ["a", "b", "c"] where random.next() % 4 != 0 {
                answers[field] = Self.hostileNumbers[Int(random.next() % UInt64(Self.hostileNumbers.count))]
            }
            let expression = Self.expression(&random, depth: 0)
            var evaluator = ExpressionEvaluator(answers: answers)
            let value = evaluator.value(of: expression)
            // Arithmetic results are short: at most 40 digits before and 40 after the point.
            if case .add = expression, let text = value.text {
                #expect(text.utf8.count <= 82, "round \(round): \(text.prefix(100))")
            }
        }
    }

    @Test func aLongChainOfComputedValuesIsEvaluatedWithoutRecursion() {
        let chain = (0..<10_000).map { index in
            ComputedValue(
                name: "v\(index)",
                expression: index == 0 ? .literal("1") : .add([.computed("v\(index - 1)"), .literal("1")]))
        }
        var evaluator = ExpressionEvaluator(computed: chain, answers: Answers())
        #expect(evaluator.computed("v9999") == .text("10000"))
    }

    @Test func aCycleOfTenThousandIsEmptyEverywhere() {
        let cycle = (0..<10_000).map { index in
            ComputedValue(
                name: "v\(index)", expression: .concat([.computed("v\((index + 1) % 10_000)"), .literal("x")]))
        }
        let reader = ComputedValue(name: "reader", expression: .concat([.literal("r"), .computed("v5")]))
        var evaluator = ExpressionEvaluator(computed: cycle + [reader], answers: Answers())
        #expect(evaluator.computed("v0") == .empty)
        #expect(evaluator.computed("reader") == .text("r"))
    }

    @Test func aDeepExpressionBuiltInMemoryIsEmptyNotAStackOverflow() {
        var expression = Expression.literal("1")
        for _ in 0..<10_000 { expression = .round(expression, scale: 0) }
        var evaluator = ExpressionEvaluator(answers: Answers())
        #expect(evaluator.value(of: expression) == .empty)
        #expect(expression.references.isEmpty)
    }
}
