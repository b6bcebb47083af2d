import ParleyCore
import Testing

/// The expression model (DESIGN.md "Expressions"): every form decodes, re-encodes canonically
/// and losslessly, and a form newer than this core survives as `unknown`.
@Suite struct ExpressionModelTests {
    static let flow = """
        { "schema": "parley.flow/1", "id": "travel", "start": "about", "locales": ["en", "fr"],
          "computed": {
            "premium": { "round": { "mul": [ { "field": "base" }, { "computed": "factor" } ] }, "scale": 2 },
            "factor": { "if": { "computed": "age", "atLeast": "65" },
                        "then": { "literal": "1.5" }, "else": { "literal": "1" } },
            "age": { "sub": [ { "literal": "2026" }, { "field": "birthYear" } ] },
            "share": { "div": [ { "field": "base" }, { "literal": "3" } ], "scale": 4 },
            "label": { "concat": [ { "field": "first" }, { "literal": " " }, { "field": "last" } ] },
            "extremes": { "add": [ { "min": [ { "field": "base" } ] }, { "max": [ { "field": "base" } ] } ] },
            "answered": { "count": [ "first", "last" ] },
            "future": { "sum": { "group": "travellers", "of": { "field": "age" } } } },
          "steps": [
            { "id": "about",
              "screen": { "id": "about", "root": { "type": "vstack", "id": "root", "children": [
                { "type": "picker", "id": "purpose",
                  "properties": { "fieldId": "purpose", "label": { "en": "Purpose", "fr": "Motif" },
                                  "options": ["leisure", "other"] } },
                { "type": "textField", "id": "other", "visibleWhen": { "field": "purpose", "equals": "other" },
                  "properties": { "fieldId": "other", "label": "Please specify",
                    "validation": [ { "rule": "required" } ] } },
                { "type": "text", "id": "hello",
                  "properties": { "text": { "template": [ { "en": "Thanks, ", "fr": "Merci, " }, { "field": "first" } ],
                                            "fallback": { "en": "Thanks", "fr": "Merci" } } } },
                { "type": "text", "id": "big", "visibleWhen": { "all": [
                    { "computed": "premium", "greaterThan": "10000" }, { "field": "first", "matches": "[A-Z].*" },
                    { "field": "last", "empty": false }, { "computed": "label", "in": ["a b"] },
                    { "computed": "answered", "present": true }, { "field": "base", "lessThan": "5" },
                    { "field": "base", "atMost": "5" } ] },
                  "properties": { "text": "Big" } },
                { "type": "button", "id": "go", "properties": { "title": "Go", "action": { "type": "submit" } } } ] } },
              "next": [ { "when": { "computed": "premium", "atLeast": "100" }, "goto": "done" }, { "goto": "done" } ] },
            { "id": "done", "screen": { "id": "done", "root": { "type": "text", "id": "t", "properties": { "text": "Bye" } } } } ] }
        """

    @Test func everyFormRoundTripsCanonically() throws {
        let flow = try Flow.decode(Self.flow)
        #expect(
            flow.computed.map(\.name) == [
                "age", "answered", "extremes", "factor", "future", "label", "premium", "share",
            ])
        #expect(flow.computedValue("answered")?.expression == .count(["first", "last"]))
        #expect(flow.computedValue("share")?.expression == .div(.field("base"), .literal("3"), scale: 4))
        guard case .unknown(let raw)? = flow.computedValue("future")?.expression else {
            Issue.record("an unknown form must decode to .unknown")
            return
        }
        #expect(raw["sum"]?["group"] == "travellers")
        let bytes = flow.canonicalBytes
        let again = try Flow.decode(bytes)
        #expect(again == flow)
        #expect(again.canonicalBytes == bytes)
    }

    @Test func visibleWhenIsANodeMemberNotAProperty() throws {
        let flow = try Flow.decode(Self.flow)
        let other = flow.steps[0].screen.root.children[1]
        #expect(other.visibleWhen == .equals(field: "purpose", value: "other"))
        #expect(other.properties["visibleWhen"] == nil)
        #expect(other.json["visibleWhen"] == ["field": "purpose", "equals": "other"])
    }

    @Test func templatesDecodeWithTheirLocalizedParts() throws {
        let flow = try Flow.decode(Self.flow)
        let hello = flow.steps[0].screen.root.children[2]
        #expect(
            hello.template("text")
                == Template(parts: [.text("Thanks, "), .expression(.field("first"))], fallback: "Thanks"))
        let french = flow.localized(to: "fr").steps[0].screen.root.children[2]
        #expect(
            french.template("text")
                == Template(parts: [.text("Merci, "), .expression(.field("first"))], fallback: "Merci"))
        #expect(hello.templates.map(\.property) == ["text"])
    }

    @Test func newPredicateFormsDecode() throws {
        let flow = try Flow.decode(Self.flow)
        guard case .all(let parts)? = flow.steps[0].screen.root.children[3].visibleWhen else {
            Issue.record("expected an all predicate")
            return
        }
        #expect(parts[0] == .compare(.computed("premium"), .greaterThan, bound: "10000"))
        #expect(parts[1] == .matches(.field("first"), pattern: "[A-Z].*"))
        #expect(parts[2] == .empty(.field("last"), false))
        #expect(parts[3] == .isIn(.computed("label"), values: ["a b"]))
        #expect(parts[4] == .present(.computed("answered"), true))
        #expect(flow.steps[0].next[0].when == .compare(.computed("premium"), .atLeast, bound: "100"))
    }

    @Test func malformedKnownFormsAreRefusedWithAPointer() {
        let cases: [(String, String)] = [
            (#"{"div": [{"literal": "1"}, {"literal": "2"}]}"#, "/scale"),
            (#"{"sub": [{"literal": "1"}]}"#, "/sub"),
            (#"{"add": [{"literal": "1"}], "mul": []}"#, ""),
            (#"{"if": {"field": "a", "equals": "b"}, "then": {"literal": "1"}}"#, "/else"),
            (#"{"round": {"literal": "1"}, "scale": -1}"#, "/scale"),
            (#"{"concat": ["text"]}"#, "/concat/0"),
        ]
        for (text, pointer) in cases {
            #expect(throws: ModelDecodingError.self) { try Expression(json: Fixture.json(text), at: .root) }
            do {
                _ = try Expression(json: Fixture.json(text), at: .root)
            } catch {
                #expect(error.pointer.description == pointer, "\(text)")
            }
        }
    }

    @Test func aPredicateReadsExactlyOneSubject() {
        #expect(throws: ModelDecodingError.self) {
            try Predicate(json: Fixture.json(#"{"field": "a", "computed": "b", "equals": "x"}"#), at: .root)
        }
        #expect(throws: ModelDecodingError.self) {
            try Predicate(json: Fixture.json(#"{"equals": "x"}"#), at: .root)
        }
    }

    @Test func aDeepValueBuiltInMemoryIsRefusedByTheDecoder() {
        var value: JSONValue = ["literal": "1"]
        for _ in 0..<10_000 { value = ["round": value, "scale": 0] }
        #expect(throws: ModelDecodingError.self) { try Expression(json: value, at: .root) }
    }
}
