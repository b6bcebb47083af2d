import Foundation
import ParleyCore
import Testing

/// `parley samples` through the real binary: shipped ids and files, determinism, exit codes.
@Suite(.timeLimit(.minutes(10))) struct SamplesCommandTests {
    static let flow = """
        {"schema": "parley.flow/1", "id": "ages", "start": "age",
         "steps": [{"id": "age", "next": [], "screen": {"id": "age", "root": {"type": "vstack", "id": "root",
           "children": [{"type": "textField", "id": "age", "properties": {"fieldId": "age",
             "validation": [{"rule": "required"}, {"rule": "minimum", "value": 18}, {"rule": "maxLength", "value": 3}]}}]}}}]}
        """

    @Test func theSameSeedPrintsTheSameBytes() throws {
        let first = try ParleyBinary.run(["samples", "passport-intake", "--seed", "5"])
        let again = try ParleyBinary.run(["samples", "passport-intake", "--seed", "5"])
        let other = try ParleyBinary.run(["samples", "passport-intake", "--seed", "6"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == again.stdout)
        #expect(first.stdout != other.stdout)
        let json = try JSONParser.parse(first.stdout)
        #expect(json["schema"]?.stringValue == "parley.samples/1")
        #expect(json["flow"]?.stringValue == "passport-intake")
        #expect(json["seed"] == 5)
    }

    @Test func aFileWithAStepAndACore() throws {
        let path = try ParleyBinary.temporaryFile(Self.flow)
        let result = try ParleyBinary.run(["samples", path, "--step", "age", "--core", "1.0"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONParser.parse(result.stdout)
        #expect(json["core"]?.stringValue == "1.0")
        let samples = json["steps"]?.arrayValue?.first?["samples"]?.arrayValue ?? []
        let minimum = samples.first { $0["rule"] == "minimum" && $0["expect"] == "fail" }
        #expect(minimum?["value"] == "17")
        #expect(minimum?["deferred"] == true, "core 1.0 has no minimum rule")
        let length = samples.first { $0["rule"] == "maxLength" && $0["expect"] == "fail" }
        #expect(length?["value"] == "1000")
        #expect(length?["deferred"] == nil)
    }

    @Test func unknownFlowsStepsAndCoresExitTwo() throws {
        let unknown = try ParleyBinary.run(["samples", "no-such-flow"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("neither a file nor a shipped flow"))
        let step = try ParleyBinary.run(["samples", "passport-intake", "--step", "nope"])
        #expect(step.status == 2)
        #expect(step.stderr.contains("has no step \"nope\""))
        let core = try ParleyBinary.run(["samples", "passport-intake", "--core", "one"])
        #expect(core.status == 2)
    }

    /// Issue 14's bar through the binary: a 20-field, 60-rule screen gets a failing sample for every
    /// rule kind the interpreter has, and each failing sample fails exactly its rule.
    @Test func aWideScreenGetsAFailingSampleForEveryRuleKindFailingOnlyThatRule() throws {
        let path = ParleyBinary.packageRoot.appendingPathComponent("Tests/Fixtures/wide-flow.json").path
        let result = try ParleyBinary.run(["samples", path, "--seed", "11"])
        #expect(result.status == 0, "\(result.stderr)")
        let flow = try Flow(
            json: try JSONParser.parse(try String(contentsOfFile: path, encoding: .utf8)), at: .root)
        let screen = try #require(flow.steps.first?.screen)
        #expect(screen.inputs.count == 20)
        #expect(screen.inputs.reduce(0) { $0 + $1.validation.count } == 60)
        let samples = try JSONParser.parse(result.stdout)["steps"]?.arrayValue?.first?["samples"]?.arrayValue ?? []
        var failedKinds: Set<String> = []
        for sample in samples where sample["expect"] == "fail" {
            let field = try #require(sample["field"]?.stringValue)
            let rule = try #require(sample["rule"]?.stringValue)
            let answers = try Answers(sample["answers"] ?? .null)
            let errors = RuleInterpreter(mode: .server).validate(screen: screen, answers: answers).errors
            #expect(errors.map(\.rule) == [rule] && errors.map(\.field) == [field], "\(field)/\(rule): \(errors)")
            failedKinds.insert(rule)
        }
        #expect(failedKinds == Set(Rule.knownKinds), "missing: \(Set(Rule.knownKinds).subtracting(failedKinds))")
    }
}
