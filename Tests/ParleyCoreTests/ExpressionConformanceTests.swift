import Foundation
import ParleyCore
import Testing

/// Runs every vector in `Tests/Conformance/expressions/*.json` (Tests/Conformance/README.md
/// "Expression vectors"): the files other cores and the server run too. The expected values come
/// from `generate.py`'s independent reference model, not from ParleyCore.
@Suite struct ExpressionConformanceTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Conformance").appendingPathComponent("expressions")

    /// Cases per file: exact, so a file that vanishes or loses cases fails here.
    static let expectedCases: [String: Int] = [
        "arithmetic.json": 123, "computed.json": 63, "predicates.json": 42, "random.json": 10_000,
        "steps.json": 18, "templates.json": 8, "text.json": 25,
    ]

    static func load(_ name: String) throws -> [JSONValue] {
        let url = directory.appendingPathComponent(name)
        let document = try JSONParser.parse(Array(try Data(contentsOf: url)), limits: .init(maximumDepth: 256))
        return try #require(document.arrayValue, "\(name) must hold an array of groups")
    }

    @Test func everyFileHasItsCases() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter {
            $0.hasSuffix(".json")
        }
        var counts: [String: Int] = [:]
        for name in names {
            counts[name] = try Self.load(name).reduce(0) { $0 + ($1["tests"]?.arrayValue?.count ?? 0) }
        }
        #expect(counts == Self.expectedCases.filter { $0.value > 0 || counts[$0.key] != nil })
    }

    @Test(arguments: [
        "arithmetic.json", "computed.json", "predicates.json", "templates.json", "text.json", "random.json",
    ])
    func valueVectorsPass(file: String) throws {
        for group in try Self.load(file) {
            let computed = try group["computed"].map { try ComputedValue.decodeList($0, at: .root) } ?? []
            let groupAnswers = try group["answers"].map { try Answers($0) }
            for test in try #require(group["tests"]?.arrayValue) {
                let label = "\(file) / \(test["description"]?.stringValue ?? "?")"
                let answers = try test["answers"].map { try Answers($0) } ?? groupAnswers ?? Answers()
                var evaluator = ExpressionEvaluator(computed: computed, answers: answers)
                if let expression = test["expression"] {
                    let got = evaluator.value(of: try Expression(json: expression, at: .root)).json
                    #expect(got == test["value"], "\(label): got \(CanonicalJSON.string(got))")
                } else if let predicate = test["predicate"] {
                    let got = evaluator.holds(try Predicate(json: predicate, at: .root))
                    #expect(.bool(got) == test["holds"], "\(label): got \(got)")
                } else if let template = test["template"] {
                    let got = evaluator.text(of: try Template(json: template, at: .root))
                    #expect(.string(got) == test["text"], "\(label): got \(got)")
                } else {
                    Issue.record("\(label): a test needs an expression, a predicate or a template")
                }
            }
        }
    }

    /// Step vectors: a flow, a step, the answers of this step and of the path; the expected
    /// evaluation is exactly what the harness's `evaluate` request answers.
    @Test func stepVectorsPass() throws {
        for group in try Self.load("steps.json") {
            let flow = try #require(group["flow"])
            for test in try #require(group["tests"]?.arrayValue) {
                var request = try #require(test.objectValue)
                request["flow"] = flow
                let got = try #require(ExpressionHarness.response(to: ["evaluate": .object(request)]))
                var expected = JSONObject()
                for key in ["cleared", "hidden", "valid", "errors", "deferred", "next", "computed", "texts"] {
                    expected[key] = test[key]
                }
                #expect(
                    got == .object(expected),
                    "\(test["description"]?.stringValue ?? "?"): got \(CanonicalJSON.string(got)) expected \(CanonicalJSON.string(.object(expected)))"
                )
            }
        }
    }
}
