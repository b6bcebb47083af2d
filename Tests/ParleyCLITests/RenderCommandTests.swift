import ParleyCore
import Testing

/// `parley render` through the real binary: output shape, gating, exit codes.
@Suite(.timeLimit(.minutes(10))) struct RenderCommandTests {
    static let flow = """
        {"schema": "parley.flow/1", "id": "intake", "start": "name",
         "steps": [
           {"id": "name", "next": [{"goto": "dob"}], "screen": {"id": "name", "root": {"type": "vstack", "id": "root",
             "children": [
               {"type": "textField", "id": "name", "properties": {"fieldId": "name", "keyboard": "default",
                 "validation": [{"rule": "required"}, {"rule": "email"}]}},
               {"type": "button", "id": "next", "properties": {"title": "Go", "action":
                 {"type": "network", "request": {"method": "POST", "path": "check"}, "fallback": {"type": "submit"}}}}]}}},
           {"id": "dob", "next": [], "screen": {"id": "dob", "root": {"type": "vstack", "id": "root",
             "children": [{"type": "datePicker", "id": "dob", "properties": {"fieldId": "dob"}},
                          {"type": "button", "id": "done", "properties": {"title": "Done", "action": {"type": "submit"}}}]}}}]}
        """

    static func render(_ arguments: [String], flow: String = flow) throws -> (ParleyBinary.Result, JSONValue?) {
        let path = try ParleyBinary.temporaryFile(flow)
        let result = try ParleyBinary.run(["render", path] + arguments)
        return (result, try? JSONParser.parse(result.stdout))
    }

    @Test func printsTheGatedStepReportDeferredRulesAndFingerprint() throws {
        let (result, output) = try Self.render(["--step", "name", "--core", "1.0"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(output)
        #expect(json["capabilities"]?.stringValue == "parley.capabilities/1;base=1.0.0")
        #expect(json["served"]?.stringValue == "step")
        #expect(json["screen"]?["id"]?.stringValue == "name")
        let decisions = (json["report"]?.arrayValue ?? []).compactMap { $0["action"]?.stringValue }
        #expect(decisions == ["propertyRemoved", "actionFallback"])
        let pointers = (json["report"]?.arrayValue ?? []).compactMap { $0["pointer"]?.stringValue }
        #expect(pointers.first == "/steps/0/screen/root/children/0/properties/keyboard")
        #expect(json["deferred"] == [["field": "name", "rule": "email"]])
        let button = json["screen"]?["root"]?["children"]?.arrayValue?.last
        #expect(button?["properties"]?["action"] == ["type": "submit"])
    }

    @Test func aNewerCoreGetsTheStepNatively() throws {
        let (result, output) = try Self.render(["--step", "name", "--core", "1.1.0"])
        #expect(result.status == 0)
        #expect(output?["report"] == [])
        #expect(output?["deferred"] == [])
        #expect(output?["capabilities"]?.stringValue == "parley.capabilities/1;base=1.1.0")
    }

    @Test func anUnrenderableStepServesTheUpgradeScreen() throws {
        let (result, output) = try Self.render(["--step", "dob", "--core", "1.2.0-beta.1"])
        #expect(result.status == 0)
        #expect(output?["served"]?.stringValue == "builtInUpgrade")
        #expect(output?["screen"]?["id"]?.stringValue == UpgradeScreen.builtIn.id)
        #expect(output?["report"]?.arrayValue?.first?["action"]?.stringValue == "escalated")
    }

    @Test func defaultsToTheStartStepAndTheFloorCore() throws {
        let (result, output) = try Self.render([])
        #expect(result.status == 0)
        #expect(output?["step"]?.stringValue == "name")
        #expect(output?["capabilities"]?.stringValue == "parley.capabilities/1;base=1.0.0")
    }

    @Test func outputIsDeterministic() throws {
        let first = try Self.render(["--core", "1.0.0"]).0.stdout
        let second = try Self.render(["--core", "1.0.0"]).0.stdout
        #expect(!first.isEmpty && first == second)
    }

    @Test func gatesAScreenDocument() throws {
        let screen = """
            {"schema": "parley.screen/1", "id": "s", "root": {"type": "grid", "id": "root", "properties": {},
              "children": [{"type": "text", "id": "t", "properties": {"text": "x"}}],
              "fallback": {"type": "vstack", "id": "list", "properties": {}}}}
            """
        let (result, output) = try Self.render(["--core", "1.2"], flow: screen)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(output?["screen"]?["root"]?["id"]?.stringValue == "list")
        #expect(output?["needsUpgrade"] == false)
    }

    @Test(arguments: ["1", "1.0.0-", "01.0.0", "latest", ""])
    func aMalformedVersionExitsWithStatus2(version: String) throws {
        let (result, output) = try Self.render(["--core", version])
        #expect(result.status == 2)
        #expect(output == nil)
        #expect(result.stderr.contains("malformed core version"))
    }

    @Test func unreadableInputExitsWithStatus2() throws {
        let missing = try ParleyBinary.run(["render", "/nonexistent/flow.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read"))
        let (notJSON, _) = try Self.render([], flow: "{not json")
        #expect(notJSON.status == 2)
        #expect(notJSON.stderr.contains("not valid JSON"))
        let (notFlow, _) = try Self.render([], flow: #"{"schema": "parley.flow/1", "id": "x"}"#)
        #expect(notFlow.status == 2)
        #expect(notFlow.stderr.contains("start"))
    }

    @Test func anUnknownStepExitsWithStatus2() throws {
        let (result, _) = try Self.render(["--step", "nope"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no step \"nope\""))
    }

    @Test func readsStandardInput() throws {
        let result = try ParleyBinary.run(["render", "-", "--core", "1.1"], stdin: Self.flow)
        #expect(result.status == 0)
        #expect(try JSONParser.parse(result.stdout)["step"]?.stringValue == "name")
    }
}
