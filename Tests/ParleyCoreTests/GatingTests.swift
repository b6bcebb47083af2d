import ParleyCore
import Testing

@Suite(.timeLimit(.minutes(10))) struct GatingTests {
    static let screen = """
        {"schema": "parley.screen/1", "id": "s", "title": "T", "root": {"type": "vstack", "id": "root", "children": [
          {"type": "datePicker", "id": "d", "properties": {"fieldId": "d", "validation": [{"rule": "required"}]}},
          {"type": "text", "id": "t", "properties": {"text": "x", "markdown": true}},
          {"type": "button", "id": "go", "properties": {"title": "Go",
            "action": {"type": "subscribe", "channel": "c", "fallback": {"type": "submit"}}}}]}}
        """

    @Test func reportEntriesSayWhatWhereAndWhy() throws {
        let gated = Gate(core: CoreVersion(1, 2, 0)).gate(try Screen.decode(Self.screen))
        #expect(!gated.needsUpgrade)
        #expect(gated.report.map(\.decision) == [.dropped])
        let entry = try #require(gated.report.first)
        #expect(entry.nodeId == "t")
        #expect(entry.pointer.description == "/root/children/1")
        #expect(
            entry.reason
                == "the core lacks property:text.markdown (introduced in core 2.0.0), an essential property; it is decorative"
        )
        #expect(entry.json["action"] == "dropped")
        #expect(entry.json["pointer"] == "/root/children/1")
    }

    @Test func escalationReasonsNameTheMissingVersion() throws {
        let gated = Gate(core: CoreVersion(1, 1, 0)).gate(try Screen.decode(Self.screen))
        #expect(gated.needsUpgrade)
        let reasons = gated.report.map(\.reason)
        #expect(
            reasons.first
                == "the core lacks component:datePicker (introduced in core 1.2.0), and it collects an answer the step needs"
        )
        #expect(
            reasons.last == "the core lacks action:subscribe (introduced in core 1.2.0); using its fallback \"submit\"")
    }

    @Test func gatedScreenWireFormAndDeterminism() throws {
        let screen = try Screen.decode(Self.screen)
        let gated = Gate(core: CoreVersion(2, 0, 0)).gate(screen)
        #expect(gated.json["needsUpgrade"] == false)
        #expect(gated.json["report"] == [])
        #expect(gated.json["screen"]?["title"] == "T")
        let action = gated.screen.root.children[2].action
        #expect(action == Action(.subscribe(channel: "c")), "kept actions lose their fallback chain")
        #expect(
            gated.canonicalBytes == Gate(core: CoreVersion(2, 0, 0)).gate(try Screen.decode(Self.screen)).canonicalBytes
        )
    }

    @Test func unknownStepGivesNil() throws {
        let flow = Flow(id: "f", start: "a", steps: [Step(id: "a", screen: try Screen.decode(Self.screen))])
        #expect(Gate(core: CoreVersion(2, 0, 0)).gate(flow, step: "b") == nil)
        #expect(Gate(core: CoreVersion(2, 0, 0)).gate(flow, step: "a")?.served == .step)
        #expect(Gate(core: CoreVersion(1, 0, 0)).gate(flow, step: "a")?.isUpgrade == true)
        let json = try #require(Gate(core: CoreVersion(1, 0, 0)).gate(flow, step: "a")?.json)
        #expect(json["served"] == "builtInUpgrade")
        #expect(json["step"] == "a")
    }

    @Test func stepIdsMatchScalarExactly() throws {
        let flow = Flow(id: "f", start: "é", steps: [Step(id: "\u{E9}", screen: try Screen.decode(Self.screen))])
        #expect(Gate(core: CoreVersion(2, 0, 0)).gate(flow, step: "e\u{301}") == nil)
        #expect(Gate(core: CoreVersion(2, 0, 0)).gate(flow, step: "\u{E9}") != nil)
    }

    @Test func theBuiltInUpgradeScreenIsNativeForEverySupportedCore() {
        for core in CoreVersion.supported {
            let gated = Gate(core: core).gate(UpgradeScreen.builtIn)
            #expect(gated.report.isEmpty && !gated.needsUpgrade && gated.screen == UpgradeScreen.builtIn)
        }
    }

    @Test func propertyNamesMatchScalarExactly() {
        // U+212A KELVIN SIGN is canonically equivalent to "K" (Swift's == says equal); the gate must not.
        let node = Node(type: .text, id: "t", properties: JSONObject([("text", "x"), ("\u{212A}eyboard", "v")]))
        let gated = Gate(core: CoreVersion(2, 0, 0)).gate(Screen(id: "s", root: node))
        #expect(gated.report.map(\.decision) == [.propertyRemoved])
        let field = Node(
            type: .textField, id: "f", properties: JSONObject([("fieldId", "f"), ("\u{212A}eyboard", "v")]))
        let root = Node(type: .vstack, id: "r", children: [field])
        #expect(Gate(core: CoreVersion(2, 0, 0)).gate(Screen(id: "s", root: root)).report.count == 1)
    }

    @Test func missingMembersReadAsNil() throws {
        // Regression: JSONObject returned .null for a missing key, so a nested screen without "schema" failed to decode.
        let object = try JSONParser.parse(#"{"a": 1}"#)
        #expect(object["b"] == nil)
        let step = try Step.decode(#"{"id": "s", "screen": {"id": "x", "root": {"type": "text", "id": "t"}}}"#)
        #expect(step.screen.id == "x")
    }
}
