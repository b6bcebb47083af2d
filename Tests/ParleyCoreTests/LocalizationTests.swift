import ParleyCore
import ParleyDSL
import Testing

/// Localized flows (DESIGN.md "Localization"): tags, `Accept-Language` lookup, and a flow that
/// keeps every language through decoding, encoding and resolution.
@Suite(.timeLimit(.minutes(10))) struct LocalizationTests {
    @Test(arguments: [
        "en", "fr-CA", "zh-Hant-TW", "sr-Latn-RS", "de-CH-1996", "en-US-x-twain", "x-private", "es-419",
        "zh-yue-HK", "en-a-bbb-x-a-ccc", "DE-ch",
    ])
    func wellFormedTags(_ tag: String) {
        #expect(LanguageTag.isWellFormed(tag))
    }

    @Test(arguments: [
        "", "e", "en_US", "abcdefghi", "fr--CA", "en-", "-en", "en-a", "de-1996-1996", "en-a-bb-a-cc", "123",
        "en-US-", "x", "fr-CA-x",
    ])
    func malformedTags(_ tag: String) {
        #expect(!LanguageTag.isWellFormed(tag))
    }

    @Test func lookupFollowsRFC4647() {
        let locales = ["en", "fr"]
        #expect(LocaleNegotiation.lookup("fr-CA;q=0.9, en;q=0.5", in: locales) == "fr")
        #expect(LocaleNegotiation.lookup("de", in: locales) == "en", "no match: the default")
        #expect(LocaleNegotiation.lookup("de, fr;q=0.1", in: locales) == "fr")
        #expect(LocaleNegotiation.lookup("FR-ca", in: locales) == "fr", "case-insensitive")
        #expect(LocaleNegotiation.lookup("fr-x-foo", in: locales) == "fr", "a single-letter subtag is dropped too")
        #expect(LocaleNegotiation.lookup("en;q=0, fr", in: locales) == "fr", "q=0 is not acceptable")
        #expect(LocaleNegotiation.lookup("fr;q=0.5, en;q=0.5", in: locales) == "fr", "ties keep header order")
        #expect(LocaleNegotiation.lookup("*", in: locales) == "en")
        #expect(LocaleNegotiation.lookup("fr-CA", in: ["en", "fr-CA"]) == "fr-CA")
        #expect(LocaleNegotiation.lookup("fr", in: ["en", "fr-CA"]) == "en", "lookup never widens a range")
        for malformed in ["fr;q=2", "fr;q=0.5.5", "fr;x=1", "f r", "12", "fr;q=", String(repeating: "a,", count: 600)] {
            #expect(LocaleNegotiation.lookup(malformed, in: locales) == "en", "\(malformed)")
        }
        #expect(LocaleNegotiation.lookup(nil, in: locales) == "en")
        #expect(LocaleNegotiation.lookup("fr", in: []) == nil)
    }

    static let document = """
        { "schema": "parley.flow/1", "id": "hello", "start": "a", "locales": ["en", "fr"],
          "title": { "en": "Hello", "fr": "Bonjour" },
          "steps": [ { "id": "a", "screen": { "id": "a", "root": { "type": "vstack", "id": "root", "children": [
            { "type": "textField", "id": "name", "properties": { "fieldId": "name",
              "label": { "en": "Name", "fr": "Nom" }, "placeholder": "Ada",
              "validation": [ { "rule": "required", "message": { "en": "Required.", "fr": "Obligatoire." } } ] } }
          ] } }, "next": [] } ] }
        """

    @Test func aLocalizedFlowDecodesInItsDefaultLocaleAndRoundTrips() throws {
        let json = Fixture.json(Self.document)
        #expect(FlowLinter().lint(flow: json).isEmpty)
        let flow = try Flow(json: json, at: .root)
        #expect(flow.title == "Hello")
        #expect(flow.locales == ["en", "fr"])
        let again = try Flow(json: flow.json, at: .root)
        #expect(again == flow, "translations survive a round trip")
        #expect(flow.json["title"] == ["en": "Hello", "fr": "Bonjour"])
        #expect(flow.json["locales"] == ["en", "fr"])
        let french = flow.localized(to: "fr")
        #expect(french.title == "Bonjour")
        #expect(french.localization == nil, "cores receive plain strings")
        let field = french.steps[0].screen.root.children[0]
        #expect(field.properties["label"] == "Nom")
        #expect(field.properties["placeholder"] == "Ada", "a plain string is the same in every locale")
        let outcome = RuleInterpreter(mode: .server).validate(screen: french.steps[0].screen, answers: Answers())
        #expect(outcome.errors.map(\.message) == ["Obligatoire."])
        #expect(flow.localized(to: "de").title == "Hello", "an unknown locale gets the default")
    }

    @Test func theDSLTranslatesFromTablesAndAMissingStringFailsLint() throws {
        let base = Flow("hi") {
            Step("a") { TextField("name", label: "Name").required("Required.") }
        }
        let complete = base.translated(from: "en", ["fr": ["Name": "Nom", "Required.": "Obligatoire."]])
        #expect(FlowLinter().lint(flow: complete.json).isEmpty)
        let frenchRoot = complete.localized(to: "fr").steps[0].screen.root
        #expect(([frenchRoot] + frenchRoot.children).contains { $0.properties["label"] == "Nom" })
        let partial = base.translated(from: "en", ["fr": ["Name": "Nom"]])
        let problems = FlowLinter().lint(flow: partial.json)
        #expect(problems.map(\.code) == ["missingLocale"])
        #expect(problems.first?.pointer.description.hasSuffix("/validation/0/message") == true, "\(problems)")
    }
}
