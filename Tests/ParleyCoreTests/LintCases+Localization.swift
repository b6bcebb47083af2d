import ParleyCore

extension LintCase {
    /// A flow declaring `locales` whose first screen holds a text field labelled `label` (JSON text).
    static func localizedFlow(locales: String, label: String) -> String {
        """
        { "schema": "parley.flow/1", "id": "f", "start": "a", "locales": \(locales),
          "steps": [ { "id": "a", "screen": { "id": "a", "root":
            { "type": "textField", "id": "name", "properties": { "fieldId": "name", "label": \(label) } } },
            "next": [] } ] }
        """
    }

    static let localization: [LintCase] = [
        LintCase(
            name: "a localized label missing one declared locale",
            document: localizedFlow(locales: #"["en", "fr"]"#, label: #"{ "en": "Name" }"#),
            code: .missingLocale, pointer: "/steps/0/screen/root/properties/label"),
        LintCase(
            name: "a localized label naming an undeclared locale",
            document: localizedFlow(locales: #"["en"]"#, label: #"{ "en": "Name", "de": "Name" }"#),
            code: .undeclaredLocale, pointer: "/steps/0/screen/root/properties/label/de"),
        LintCase(
            name: "a localized label in a flow that declares no locales",
            document: Fixture.flow(
                root: #"{ "type": "text", "id": "t", "properties": { "text": { "en": "Hi" } } }"#),
            code: .undeclaredLocale, pointer: "/steps/0/screen/root/properties/text"),
        LintCase(
            name: "a locale that is not a BCP 47 tag",
            document: localizedFlow(locales: #"["en_US"]"#, label: #""Name""#),
            code: .invalidLocaleTag, pointer: "/locales/0"),
        LintCase(
            name: "a locale listed twice",
            document: localizedFlow(locales: #"["en", "EN"]"#, label: #""Name""#),
            code: .invalidValue, pointer: "/locales/1"),
        LintCase(
            name: "a localized string that is not a string",
            document: localizedFlow(locales: #"["en", "fr"]"#, label: #"{ "en": "Name", "fr": 3 }"#),
            code: .wrongType, pointer: "/steps/0/screen/root/properties/label/fr"),
        LintCase(
            name: "locales that are not an array",
            document: localizedFlow(locales: #""en""#, label: #""Name""#),
            code: .wrongType, pointer: "/locales"),
    ]
}
