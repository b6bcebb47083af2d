import ParleyCore
import Testing

/// Issue 25's gating line, over a live socket and a real Postgres, one test per clause: a
/// template reading an earlier step resolves in a 1.0 core's snapshot (a plain string); one
/// reading the current screen is served unresolved to 2.1 and as its fallback to 1.2; without a
/// fallback, lint refuses the flow for the supported cores that cannot render it.
@Suite(.timeLimit(.minutes(10))) struct ExpressionGatingScenarioTests {
    /// `name` asks the first name; `pay` recalls it (an earlier step) and echoes its own `code`
    /// field live (the current screen), with `liveFallback` as that template's fallback (nil: none).
    static func flow(id: String, liveFallback: String?, upgrade: Bool = true) -> String {
        let fallback = liveFallback.map { #", "fallback": "\#($0)""# } ?? ""
        let upgradeScreen =
            upgrade
            ? #", "upgrade": {"id": "up", "root": {"type": "text", "id": "u", "properties": {"text": "Please update."}}}"#
            : ""
        return """
            {"schema": "parley.flow/1", "id": "\(id)", "title": "Gating", "start": "name",
             "steps": [
              {"id": "name", "screen": {"id": "name", "title": "Name", "root": {"type": "vstack", "id": "r", "children": [
                {"type": "textField", "id": "n", "properties": {"fieldId": "firstName", "label": "First name",
                  "validation": [{"rule": "required", "message": "Name?"}]}},
                {"type": "button", "id": "go", "properties": {"title": "Next", "action": {"type": "submit"}}}]}},
               "next": [{"goto": "pay"}]},
              {"id": "pay", "screen": {"id": "pay", "title": "Pay", "root": {"type": "vstack", "id": "r", "children": [
                {"type": "text", "id": "hello", "properties": {"text": {"template": ["Thanks, ", {"field": "firstName"}]}}},
                {"type": "text", "id": "echo", "properties": {"text": {"template": ["Code: ", {"field": "code"}]\(fallback)}}},
                {"type": "textField", "id": "c", "properties": {"fieldId": "code", "label": "Code"}},
                {"type": "button", "id": "go", "properties": {"title": "Pay", "action": {"type": "submit"}}}]}},
               "next": []}]\(upgradeScreen)}
            """
    }

    static let liveTemplate: JSONValue = ["template": ["Code: ", ["field": "code"]], "fallback": "Type your code."]

    static func released(_ service: ServiceHarness, _ json: String, id: String) throws {
        let posted = try service.postFlow(json)
        try #require(posted.status == 201, "\(posted)")
        try #require(try service.release(id, version: 1).status == 201)
    }

    /// The text property of node `id` among the children of a served screen's root.
    static func text(of id: String, in screen: JSONValue?) -> JSONValue? {
        screen?["root"]?["children"]?.arrayValue?.first { $0["id"]?.stringValue == id }?["properties"]?["text"]
    }

    @Test func theRegistryListsWhatExpressionsAddAsCore21() async throws {
        try await ServiceHarness.run(inProcess: 1, .live) { service in
            let registry = try service.client.send(
                "GET", "/v1/capabilities", headers: [ServiceHarness.bearer(service.author)])
            try #require(registry.status == 200, "\(registry)")
            #expect(registry.json["cores"]?.arrayValue?.last == "2.1.0", "\(registry)")
            let expressions = registry.json["expressions"]?.arrayValue ?? []
            #expect(
                expressions.compactMap { $0["name"]?.stringValue } == [
                    "visibleWhen", "template", "computed", "greaterThan", "atLeast", "lessThan", "atMost", "matches",
                    "empty",
                ], "\(registry)")
            #expect(expressions.allSatisfy { $0["introduced"] == "2.1.0" })
        }
    }

    @Test func aTemplateReadingAnEarlierStepResolvesInTheSnapshotForCore10() async throws {
        try await ServiceHarness.run(inProcess: 1, .live) { service in
            let id = FlowFixture.uniqueId("recall")
            try Self.released(service, Self.flow(id: id, liveFallback: "Type your code."), id: id)
            var snapshot = try service.startSession(id, core: "1.0.0").json
            snapshot = try service.advance(snapshot, ["firstName": "Ana"])
            #expect(snapshot.step == "pay", "\(snapshot)")
            #expect(snapshot["screen"]?["served"] == "step", "\(snapshot)")
            #expect(Self.text(of: "hello", in: snapshot["screen"]?["screen"]) == "Thanks, Ana", "\(snapshot)")
        }
    }

    @Test func aTemplateReadingTheCurrentScreenIsUnresolvedFor21AndItsFallbackFor12() async throws {
        try await ServiceHarness.run(inProcess: 1, .live) { service in
            let id = FlowFixture.uniqueId("live")
            try Self.released(service, Self.flow(id: id, liveFallback: "Type your code."), id: id)
            // Without a session (GET /v1/screens).
            let newest = try service.screen(id, step: "pay", core: "2.1.0")
            try #require(newest.status == 200, "\(newest)")
            #expect(Self.text(of: "echo", in: newest.json["screen"]) == Self.liveTemplate, "\(newest)")
            let older = try service.screen(id, step: "pay", core: "1.2.0")
            try #require(older.status == 200, "\(older)")
            #expect(older.json["served"] == "step", "\(older)")
            #expect(Self.text(of: "echo", in: older.json["screen"]) == "Type your code.", "\(older)")
            #expect(
                older.json["report"]?.arrayValue?.contains { $0["action"] == "templateFallback" } == true, "\(older)")
            #expect(older.header("ETag") != newest.header("ETag"))
            // In a session, the same for each core, with the earlier step's template resolved.
            for (core, expected) in [("2.1.0", Self.liveTemplate), ("1.2.0", "Type your code.")] {
                var snapshot = try service.startSession(id, core: core).json
                snapshot = try service.advance(snapshot, ["firstName": "Ana"])
                let screen = snapshot["screen"]?["screen"]
                #expect(Self.text(of: "echo", in: screen) == expected, "\(core): \(snapshot)")
                #expect(Self.text(of: "hello", in: screen) == "Thanks, Ana", "\(core): \(snapshot)")
            }
        }
    }

    @Test func withoutAFallbackLintRefusesTheFlowForTheCoresThatCannotRenderIt() async throws {
        try await ServiceHarness.run(inProcess: 1, .live) { service in
            let id = FlowFixture.uniqueId("nofallback")
            let json = Self.flow(id: id, liveFallback: nil, upgrade: false)
            let lint = try service.client.sendJSON(
                "POST", "/v1/flows/lint", json, headers: [ServiceHarness.bearer(service.author)])
            try #require(lint.status == 200, "\(lint)")
            #expect(lint.json["valid"] == false, "\(lint)")
            let problems = (lint.json["problems"]?.arrayValue ?? []).filter { $0["severity"] != "warning" }
            #expect(problems.count == 1, "\(lint)")
            let problem = try #require(problems.first)
            #expect(problem["code"] == "unservableStep")
            #expect(problem["pointer"] == "/steps/1/screen/root/children/1/properties/text", "\(problem)")
            let message = problem["message"]?.stringValue ?? ""
            #expect(message.contains("1.0.0, 1.1.0, 1.2.0, 2.0.0") && !message.contains("2.1.0"), "\(message)")
            let pay = lint.json["servability"]?["steps"]?.arrayValue?.first { $0["id"] == "pay" }?["servability"]
            for core in ["1.0.0", "1.1.0", "1.2.0", "2.0.0"] { #expect(pay?[core] == "notServable", "\(core)") }
            #expect(pay?["2.1.0"] == "native")
            // Publishing refuses it with the same problem; the earlier-step template alone was fine.
            let posted = try service.postFlow(json)
            #expect(posted.status == 422, "\(posted)")
            #expect(
                posted.json["problems"]?.arrayValue?.filter { $0["severity"] != "warning" }.map { $0["pointer"] } == [
                    "/steps/1/screen/root/children/1/properties/text"
                ], "\(posted)")
        }
    }
}
