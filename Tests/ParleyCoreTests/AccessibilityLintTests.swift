import ParleyCore
import Testing

/// Issue 26: the accessibility lint warns by default, refuses publishing under `strict`, and
/// checks every declared locale.
@Suite struct AccessibilityLintTests {
    static let unlabelled = #"{ "type": "textField", "id": "n", "properties": { "fieldId": "n" } }"#

    /// `Fixture.flow(nodes:)` with extra flow-level members (JSON text ending in a comma).
    static func flow(_ members: String, nodes: String, title: String = "\"Hello\"") -> String {
        """
        { "schema": "parley.flow/1", "id": "f", "start": "a", \(members)
          "steps": [ { "id": "a", "screen": { "id": "a", "title": \(title),
            "root": { "type": "vstack", "id": "root", "children": [ \(nodes) ] } }, "next": [] } ] }
        """
    }

    @Test func findingsAreWarningsThatDoNotRefusePublishing() {
        let document = Fixture.json(Self.flow("", nodes: Self.unlabelled))
        let reported = FlowLinter(includesWarnings: true).lint(flow: document)
        #expect(reported.map(\.code) == ["inputWithoutLabel"])
        #expect(reported.allSatisfy { $0.severity == .warning })
        #expect(reported.errors.isEmpty)
        #expect(FlowLinter().lint(flow: document).isEmpty, "publishing sees no error")
    }

    @Test func strictMakesThemErrors() throws {
        let document = Fixture.json(Self.flow(#""accessibility": "strict","#, nodes: Self.unlabelled))
        let problems = FlowLinter().lint(flow: document)
        #expect(problems.map(\.code) == ["inputWithoutLabel"])
        #expect(problems.allSatisfy { $0.severity == .error })
        #expect(problems.first?.pointer.description == "/steps/0/screen/root/children/0/properties/label")
        #expect(try Flow(json: document, at: .root).id == "f", "the member decodes (it is ignored by the model)")
    }

    @Test func anUnknownModeIsAnError() {
        let problems = FlowLinter().lint(flow: Fixture.json(Self.flow(#""accessibility": "loud","#, nodes: "")))
        #expect(problems.map(\.code) == ["invalidValue"])
        #expect(problems.first?.pointer.description == "/accessibility")
    }

    @Test func decorativeImagesAndFallbacksRepeatingTheirLabelAreClean() {
        let nodes = #"""
            { "type": "image", "id": "i", "properties": { "url": "https://x.test/a.png", "decorative": true } },
            { "type": "quickReplies", "id": "q", "properties": { "fieldId": "q", "options": ["Yes", "No"],
              "validation": [ { "rule": "required", "message": "Pick one." } ] },
              "fallback": { "type": "picker", "id": "qp", "properties": { "fieldId": "q", "label": "Topic", "options": ["Yes", "No"] } } },
            { "type": "textField", "id": "t", "properties": { "fieldId": "t", "label": "Topic" },
              "fallback": { "type": "textField", "id": "t0", "properties": { "fieldId": "t", "label": "Topic" } } },
            { "type": "button", "id": "b", "properties": { "title": "Continue", "action": { "type": "submit" } } }
            """#
        let problems = FlowLinter(includesWarnings: true).lint(flow: Fixture.json(Self.flow("", nodes: nodes)))
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func everyLocaleIsChecked() {
        let nodes = #"""
            { "type": "textField", "id": "a", "properties": { "fieldId": "a", "label": { "en": "First name", "fr": "Nom" } } },
            { "type": "textField", "id": "b", "properties": { "fieldId": "b", "label": { "en": "Last name", "fr": "Nom" } } }
            """#
        let document = Self.flow(#""locales": ["en", "fr"],"#, nodes: nodes, title: #"{ "en": "Names", "fr": "Noms" }"#)
        let problems = FlowLinter(includesWarnings: true).lint(flow: Fixture.json(document))
        #expect(problems.map(\.code) == ["duplicateInputLabel"])
        #expect(problems.first?.pointer.description == "/steps/0/screen/root/children/1/properties/label")
        #expect(problems.first?.message.hasSuffix("(in \"fr\")") == true, "\(problems)")
    }

    @Test func bundlePointersNameTheFlow() {
        let bundle = Fixture.json(
            #"{ "schema": "parley.bundle/1", "channel": "c", "flows": [ \#(Self.flow("", nodes: Self.unlabelled)) ] }"#)
        let problems = FlowLinter(includesWarnings: true).lint(bundle: bundle)
        #expect(problems.map(\.pointer.description) == ["/flows/0/steps/0/screen/root/children/0/properties/label"])
        #expect(FlowLinter().lint(bundle: bundle).isEmpty)
    }
}
