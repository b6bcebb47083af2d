import ParleyCore

extension LintCase {
    /// Issue 26: one case per accessibility finding.
    static let accessibility: [LintCase] = [
        LintCase(
            name: "text field without a label",
            document: Fixture.flow(
                nodes: #"{ "type": "textField", "id": "n", "properties": { "fieldId": "n", "placeholder": "Name" } }"#),
            code: .inputWithoutLabel, pointer: node0 + "/properties/label"),
        LintCase(
            name: "image without alt",
            document: Fixture.flow(
                nodes: #"{ "type": "image", "id": "i", "properties": { "url": "https://x.test/a.png" } }"#),
            code: .imageWithoutAlt, pointer: node0 + "/properties/alt"),
        LintCase(
            name: "button without a title",
            document: Fixture.flow(
                nodes: #"{ "type": "button", "id": "b", "properties": { "action": { "type": "submit" } } }"#),
            code: .buttonWithoutTitle, pointer: node0 + "/properties/title"),
        LintCase(
            name: "button titled with a symbol only",
            document: Fixture.flow(
                nodes:
                    #"{ "type": "button", "id": "b", "properties": { "title": "→", "action": { "type": "submit" } } }"#),
            code: .buttonWithoutTitle, pointer: node0 + "/properties/title"),
        LintCase(
            name: "two inputs labelled alike",
            document: Fixture.flow(nodes: labelled("a", "Name") + ", " + labelled("b", " name ")),
            code: .duplicateInputLabel, pointer: node1 + "/properties/label"),
        LintCase(
            name: "options that read the same",
            document: Fixture.flow(
                nodes:
                    #"{ "type": "picker", "id": "p", "properties": { "fieldId": "p", "label": "Pick", "options": ["Work", "work "] } }"#
            ),
            code: .duplicateOptionLabel, pointer: node0 + "/properties/options/1"),
        LintCase(
            name: "screen without a title",
            document: Fixture.flow(nodes: labelled("a", "Name")),
            code: .screenWithoutTitle, pointer: "/steps/0/screen/title"),
        LintCase(
            name: "long button title",
            document: Fixture.flow(
                nodes:
                    #"{ "type": "button", "id": "b", "properties": { "title": "Continue to the next part of this long form now", "action": { "type": "submit" } } }"#
            ),
            code: .buttonTitleTooLong, pointer: node0 + "/properties/title"),
        LintCase(
            name: "rule without a message",
            document: Fixture.flow(
                nodes:
                    #"{ "type": "textField", "id": "n", "properties": { "fieldId": "n", "label": "Name", "validation": [ { "rule": "required" } ] } }"#
            ),
            code: .ruleWithoutMessage, pointer: node0 + "/properties/validation/0"),
        LintCase(
            name: "two buttons titled alike acting differently",
            document: Fixture.flow(
                nodes:
                    #"{ "type": "button", "id": "a", "properties": { "title": "Go", "action": { "type": "submit" } } }, { "type": "button", "id": "b", "properties": { "title": "Go", "action": { "type": "openUrl", "url": "https://x.test" } } }"#
            ),
            code: .duplicateButtonTitle, pointer: node1 + "/properties/title"),
    ]

    /// A text field with a label.
    static func labelled(_ field: String, _ label: String) -> String {
        #"{ "type": "textField", "id": "\#(field)", "properties": { "fieldId": "\#(field)", "label": "\#(label)" } }"#
    }
}
