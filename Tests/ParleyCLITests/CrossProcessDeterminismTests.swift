import Flows
import Foundation
import ParleyCore
import Testing

/// Determinism that a second call in the same process cannot see: Swift seeds `Hasher` per
/// process, so a dictionary's order (and anything built by iterating one) can differ between
/// processes. Each check compares bytes made in this test process with bytes the `parley`
/// executable makes in its own process.
@Suite(.timeLimit(.minutes(10))) struct CrossProcessDeterminismTests {
    /// The shipped DSL flows compile to the same bytes here and in `parley bundle build`.
    @Test func shippedFlowsCompileToTheSameBytesInAnotherProcess() throws {
        let out = try ParleyBinary.temporaryFile("", name: "bundle.json")
        let built = try ParleyBinary.run(["bundle", "build", "--channel", "production", "--out", out])
        try #require(built.status == 0, "\(built.stderr)")
        let bundle = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
        let theirs = try #require(bundle["flows"]?.arrayValue).prefix(ShippedFlows.all.count)
        #expect(theirs.map { CanonicalJSON.encode($0) } == ShippedFlows.all.map(\.canonicalBytes))
    }

    /// Every step of every shipped flow, gated for an old, a middle and a new core, gives the
    /// same bytes here and in `parley render`.
    @Test(arguments: ["1.0.0", "1.2.0", "9.0.0"])
    func gatingGivesTheSameBytesInAnotherProcess(core: String) throws {
        let capabilities = CapabilitySet(core: try CoreVersion(parsing: core))
        let gate = Gate(capabilities: capabilities)
        var steps = 0
        for flow in ShippedFlows.all {
            let file = try ParleyBinary.temporaryFile(
                String(decoding: flow.canonicalBytes, as: UTF8.self), name: "\(flow.id).json")
            for step in flow.steps {
                var ours = try #require(gate.gate(flow, step: step.id)?.json.objectValue)
                ours["capabilities"] = .string(capabilities.fingerprintInput)
                let theirs = try ParleyBinary.run(["render", file, "--step", step.id, "--core", core])
                #expect(theirs.status == 0, "\(theirs.stderr)")
                #expect(theirs.stdout == CanonicalJSON.string(.object(ours)) + "\n", "\(flow.id)/\(step.id) at \(core)")
                steps += 1
            }
        }
        #expect(steps >= 3)
    }

    /// Every rules conformance vector, validated by `parley validate --harness`, gives the same
    /// outcome bytes as the interpreter in this process.
    @Test func rulesGiveTheSameOutcomesInAnotherProcess() throws {
        let directory = ParleyBinary.packageRoot.appendingPathComponent("Tests/Conformance/rules")
        var requests: [String] = []
        var ours: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        where name.hasSuffix(".json") {
            let groups = try JSONParser.parse(Array(try Data(contentsOf: directory.appendingPathComponent(name))))
            for group in groups.arrayValue ?? [] where group["screenError"]?.boolValue != true {
                let screen = try Screen(json: try #require(group["screen"]), at: .root)
                let modeName = group["mode"]?.stringValue ?? "server"
                let mode: RuleInterpreter.Mode = modeName == "client" ? .client : .server
                for test in group["tests"]?.arrayValue ?? [] {
                    let answers = try #require(test["answers"])
                    var request = JSONObject()
                    request["screen"] = group["screen"]
                    request["answers"] = answers
                    request["mode"] = .string(modeName)
                    requests.append(CanonicalJSON.string(.object(request)))
                    let outcome = RuleInterpreter(mode: mode).validate(screen: screen, answers: try Answers(answers))
                    ours.append(CanonicalJSON.string(outcome.json))
                }
            }
        }
        try #require(requests.count > 500)
        let theirs = try ParleyBinary.run(["validate", "--harness"], stdin: requests.joined(separator: "\n") + "\n")
        #expect(theirs.status == 0, "\(theirs.stderr)")
        let lines = theirs.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == ours.count)
        for (index, (line, expected)) in zip(lines, ours).enumerated() where line != expected {
            Issue.record("vector \(index): another process gave \(line), this one \(expected)")
        }
    }
}
