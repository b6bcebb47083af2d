import ParleyCore
import Testing

@Suite(.timeLimit(.minutes(10))) struct ModelDecodingTests {
    static func decodeFlow() throws -> Flow { try Flow.decode(Fixture.everyKindFlow) }

    @Test func everyComponentTypeDecodesToItsKnownCase() throws {
        let flow = try Self.decodeFlow()
        var types: [String] = []
        func visit(_ node: Node) {
            types.append(node.type.name)
            #expect(node.type.isKnown, "\(node.type.name) should be known")
            node.children.forEach(visit)
            node.fallback.map(visit)
        }
        for step in flow.steps { visit(step.screen.root) }
        for type in ComponentType.known { #expect(types.contains(type.name), "fixture lacks \(type.name)") }
        #expect(ComponentType(name: "textField") == .textField)
        #expect(ComponentType(name: "carousel").isContainer)
        #expect(ComponentType(name: "toggle").isInput)
    }

    @Test func everyRuleKindDecodesWithItsParameters() throws {
        let flow = try Self.decodeFlow()
        let rules = flow.steps.flatMap { $0.screen.inputs.flatMap(\.validation) }
        let checks = rules.map(\.check)
        #expect(Set(rules.map(\.name)) == Set(Rule.knownKinds))
        #expect(checks.contains(.minLength(2)))
        #expect(checks.contains(.maxLength(40)))
        #expect(checks.contains(.pattern("[A-Za-z ]+")))
        #expect(checks.contains(.oneOf(["work", "holiday"])))
        #expect(checks.contains(.equalsField("name")))
        #expect(checks.contains(.requiredIf(.equals(field: "purpose", value: "work"))))
        #expect(checks.contains(.maximum(JSONNumber(parsing: "100.5")!)))
        #expect(checks.contains(.multipleOf(JSONNumber(parsing: "0.0001")!)))
        #expect(checks.contains(.date(min: "1900-01-01", max: "2024-02-29")))
        #expect(rules.first { $0.name == "required" }?.message == "Required.")
    }

    @Test func everyActionTypeDecodes() throws {
        let flow = try Self.decodeFlow()
        let actions = flow.steps[0].screen.nodes.compactMap(\.action)
        let reorder = try #require(actions.first { $0.typeName == "network" })
        #expect(
            reorder.kind == .network(RequestSpec(method: "POST", path: "orders/reorder", include: ["name", "amount"])))
        #expect(reorder.fallback?.kind == .subscribe(channel: "orders"))
        #expect(reorder.fallback?.fallback == .submit)
        #expect(actions.contains { $0.kind == .openURL("https://example.com/help") })
    }

    @Test func predicatesAndTransitionsDecode() throws {
        let flow = try Self.decodeFlow()
        let first = try #require(flow.step("first"))
        #expect(first.next.map(\.goto) == ["work", "done"])
        let when = try #require(first.next[0].when)
        #expect(
            when
                == .all([
                    .isIn(field: "purpose", values: ["work"]), .not(.present(field: "agree", false)),
                    .any([.equals(field: "mood", value: "great")]),
                ]))
        #expect(when.fields == ["purpose", "agree", "mood"])
        #expect(flow.upgrade?.id == "upgrade")
        #expect(flow.step("done")?.next.isEmpty == true)
    }

    @Test func unknownComponentTypeKeepsNameAndRawJSON() throws {
        let text = #"""
            { "type": "map", "id": "m", "properties": { "lat": 1.5, "action": { "type": "x" }, "validation": 3 },
              "layout": { "pin": true }, "children": [ { "type": "text", "id": "t" } ] }
            """#
        let node = try Node(json: Fixture.json(text), at: .root)
        #expect(node.type == .unknown("map"))
        #expect(node.properties["validation"] == 3)
        #expect(node.action == nil)
        #expect(node.json == Fixture.json(text).withEmptyProperties(atChildren: true))
    }

    @Test func unknownActionTypeRoundTripsLosslessly() throws {
        let text = #"{ "type": "share", "sheet": { "x": [1, 2] }, "fallback": { "type": "submit" } }"#
        let action = try Action(json: Fixture.json(text), at: .root)
        guard case .unknown(let type, let raw) = action.kind else {
            Issue.record("expected unknown, got \(action.kind)")
            return
        }
        #expect(type == "share")
        #expect(raw["sheet"] == Fixture.json(#"{ "x": [1, 2] }"#))
        #expect(action.fallback == .submit)
        #expect(action.json == Fixture.json(text))
    }

    @Test func unknownRuleKindRoundTripsLosslessly() throws {
        let text = #"{ "rule": "luhn", "digits": 16, "message": { "en": "Bad card" } }"#
        let rule = try Rule(json: Fixture.json(text), at: .root)
        #expect(rule.name == "luhn")
        #expect(!rule.isKnown)
        #expect(rule.message == nil)
        #expect(rule.json == Fixture.json(text))
    }

    @Test func unknownFieldsAreIgnoredEverywhere() throws {
        let flow = try Flow.decode(
            #"""
            { "schema": "parley.flow/1.3", "id": "f", "start": "a", "future": [1], "steps": [
              { "id": "a", "color": "red", "screen": { "id": "s", "x": 1,
                "root": { "type": "button", "id": "b", "extra": true,
                  "properties": { "title": "Go", "action": { "type": "submit", "haptic": "soft" } } } },
                "next": [ { "goto": "a", "weight": 3, "when": { "field": "q", "equals": "y", "note": "n" } } ] } ] }
            """#)
        #expect(flow.steps[0].screen.root.action == .submit)
        #expect(flow.steps[0].next[0].when == .equals(field: "q", value: "y"))
        #expect(!flow.canonicalString.contains("future"))
    }

    @Test(arguments: [
        (#"{ "id": "f", "start": "a", "steps": [] }"#, "is required"),
        (#"{ "schema": "parley.flow/2", "id": "f", "start": "a", "steps": [] }"#, "major version 2"),
        (#"{ "schema": "parley.flow/x", "id": "f", "start": "a", "steps": [] }"#, "malformed"),
        (#"{ "schema": "parley.flow/01", "id": "f", "start": "a", "steps": [] }"#, "malformed"),
        (#"{ "schema": "parley.flow/1.2.3", "id": "f", "start": "a", "steps": [] }"#, "malformed"),
        (#"{ "schema": "parley.screen/1", "id": "f", "start": "a", "steps": [] }"#, "expected \"parley.flow/1\""),
        (#"{ "schema": 1, "id": "f", "start": "a", "steps": [] }"#, "must be a string"),
    ])
    func badSchemaVersionsAreRejected(document: String, expected: String) throws {
        let error = try #require(throws: ModelDecodingError.self) { try Flow.decode(document) }
        #expect(error.code == "unsupportedSchema")
        #expect(error.pointer.description == "/schema")
        #expect(error.message.contains(expected), "\(error.message)")
    }

    @Test func minorSchemaVersionsAreAccepted() throws {
        let flow = try Flow.decode(#"{ "schema": "parley.flow/1.7", "id": "f", "start": "a", "steps": [] }"#)
        #expect(flow.canonicalString.contains(#""schema":"parley.flow/1""#))
    }

    @Test func shortValidationFormIsNormalisedToTheCanonicalArray() throws {
        let node = try Node(
            json: Fixture.json(
                #"""
                { "type": "textField", "id": "n", "properties": { "fieldId": "n",
                  "validation": { "maxLength": 9, "required": true, "email": false, "date": { "min": "2000-01-01" },
                                  "message": "Check it." } } }
                """#), at: .root)
        #expect(node.validation.map(\.name) == ["required", "maxLength", "date"])
        #expect(node.validation.allSatisfy { $0.message == "Check it." })
        #expect(node.validation[2].check == .date(min: "2000-01-01", max: nil))
        let expected = Fixture.json(
            #"""
            [ { "rule": "required", "message": "Check it." }, { "rule": "maxLength", "value": 9, "message": "Check it." },
              { "rule": "date", "min": "2000-01-01", "message": "Check it." } ]
            """#)
        #expect(node.json["properties"]?["validation"] == expected)
    }

    @Test func shortFormRejectsNonBooleanFlags() throws {
        let value = Fixture.json(#"{ "required": "yes" }"#)
        let error = try #require(throws: ModelDecodingError.self) { try Rule.decodeList(value, at: .root) }
        #expect(error.pointer.description == "/required")
        #expect(try Rule.decodeList(Fixture.json(#"{ "date": false }"#), at: .root).isEmpty)
    }

    @Test func missingAndIllTypedMembersNameTheirPointer() throws {
        let missing = try #require(throws: ModelDecodingError.self) {
            try Screen.decode(#"{ "schema": "parley.screen/1", "id": "s", "root": { "type": "text" } }"#)
        }
        #expect(missing.code == "missing")
        #expect(missing.pointer.description == "/root/id")
        let wrong = try #require(throws: ModelDecodingError.self) {
            try Screen.decode(#"{ "schema": "parley.screen/1", "id": "s", "root": { "type": "text", "id": 4 } }"#)
        }
        #expect(wrong.code == "wrongType")
        #expect(wrong.pointer.description == "/root/id")
        let notJSON = try #require(throws: ModelDecodingError.self) { try Screen.decode("{ nope") }
        #expect(notJSON.code == "notJSON")
    }

    @Test func missingMemberIsAbsentNotNull() {
        let object = JSONObject([("a", .null)])
        #expect(object["a"] == .some(.null))
        #expect(object["b"] == nil)
        #expect(!object.contains("b"))
    }
}

extension JSONValue {
    /// The value as the encoder writes nodes: `properties` always present on this node and, optionally, its children.
    func withEmptyProperties(atChildren: Bool) -> JSONValue {
        guard case .object(var object) = self else { return self }
        if object["properties"] == nil { object["properties"] = .object(JSONObject()) }
        if atChildren, case .array(let children)? = object["children"] {
            object["children"] = .array(children.map { $0.withEmptyProperties(atChildren: true) })
        }
        return .object(object)
    }
}
