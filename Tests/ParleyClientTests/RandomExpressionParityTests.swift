import Foundation
import ParleyClient
import ParleyCore
import Testing

/// The 10,000 random (expression, answers) cases of `Tests/Conformance/expressions/random.json`
/// give the same value through ``ParleySession/evaluate(_:)`` (a snapshot carrying each case as a
/// computed value, evaluated on the device) as ParleyCore's evaluator and the vectors' reference
/// model (issue 25: one interpreter on the server and every client).
@Suite(.timeLimit(.minutes(2))) struct RandomExpressionParityTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Conformance/expressions/random.json")

    @Test func tenThousandCasesAgree() async throws {
        let document = try JSONParser.parse(Array(try Data(contentsOf: Self.file)), limits: .init(maximumDepth: 256))
        let groups = try #require(document.arrayValue)
        var cases = 0
        for (index, group) in groups.enumerated() {
            let answers = try Answers(try #require(group["answers"]))
            let tests = try #require(group["tests"]?.arrayValue)
            // One computed value per case, named so the names sort in case order.
            var computed: [ComputedValue] = []
            for (number, test) in tests.enumerated() {
                let name = "case" + String(100_000 + number)
                computed.append(
                    ComputedValue(
                        name: name, expression: try Expression(json: try #require(test["expression"]), at: .root)))
            }
            // Every answered field is an input of the screen, so the answers are this step's.
            let inputs = answers.fieldIds.map { field in
                Node(type: .textField, id: field, properties: JSONObject([("fieldId", .string(field))]))
            }
            let screen = Screen(id: "random\(index)", root: Node(type: .vstack, id: "root", children: inputs))
            let transport = SessionTransport(screen: screen, computed: computed)
            let session = try await ParleySession.start(flow: "random", endpoint: ParleyEndpoint(transport: transport))
            let local = await session.evaluate(answers)
            var core = ExpressionEvaluator(computed: [], answers: answers)
            for (value, test) in zip(computed, tests) {
                let onDevice = local.computed(value.name).json
                let inCore = core.value(of: value.expression).json
                let label = "\(group["description"]?.stringValue ?? "?") / \(test["description"]?.stringValue ?? "?")"
                #expect(onDevice == inCore, "\(label): device \(CanonicalJSON.string(onDevice))")
                #expect(onDevice == test["value"], "\(label): device \(CanonicalJSON.string(onDevice))")
                cases += 1
            }
        }
        #expect(cases == 10_000)
    }
}
