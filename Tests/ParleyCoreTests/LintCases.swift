import Foundation
import ParleyCore

extension LintCase {
    /// The table: at least one case per code and per check listed in issue 2.
    static let all: [LintCase] =
        structure + nodes + flows + actions + rules + limitsCases + localization + paths + expressions

    static let structure: [LintCase] = [
        LintCase(
            name: "flow without schema", document: #"{ "id": "f", "start": "a", "steps": [] }"#,
            code: .unsupportedSchema, pointer: "/schema"),
        LintCase(
            name: "unknown major version",
            document: #"{ "schema": "parley.flow/2", "id": "f", "start": "a", "steps": [] }"#,
            code: .unsupportedSchema, pointer: "/schema"),
        LintCase(
            name: "document of unknown kind", document: #"{ "schema": "parley.thing/1" }"#, kind: .document,
            code: .unsupportedSchema, pointer: "/schema"),
        LintCase(name: "document not an object", document: "[1]", kind: .document, code: .wrongType, pointer: ""),
        LintCase(
            name: "steps not an array",
            document: #"{ "schema": "parley.flow/1", "id": "f", "start": "a", "steps": {} }"#,
            code: .wrongType, pointer: "/steps"),
        LintCase(
            name: "step without screen",
            document: #"{ "schema": "parley.flow/1", "id": "f", "start": "a", "steps": [ { "id": "a" } ] }"#,
            code: .missingMember, pointer: "/steps/0/screen"),
        LintCase(
            name: "nested screen with unknown schema",
            document: Fixture.flow(root: #"{ "type": "text", "id": "t" }"#).replacingFirst(
                #""screen": {"#, with: #""screen": { "schema": "parley.screen/9","#),
            code: .unsupportedSchema, pointer: "/steps/0/screen/schema"),
    ]

    static let nodes: [LintCase] = [
        LintCase(
            name: "node without id", document: Fixture.flow(nodes: #"{ "type": "text" }"#), code: .missingMember,
            pointer: node0 + "/id"),
        LintCase(
            name: "node id not a string", document: Fixture.flow(nodes: #"{ "type": "text", "id": 7 }"#),
            code: .wrongType, pointer: node0 + "/id"),
        LintCase(
            name: "empty node id", document: Fixture.flow(nodes: #"{ "type": "text", "id": "" }"#),
            code: .invalidValue, pointer: node0 + "/id"),
        LintCase(
            name: "duplicate node id",
            document: Fixture.flow(nodes: #"{ "type": "text", "id": "x" }, { "type": "divider", "id": "x" }"#),
            code: .duplicateNodeId, pointer: node1 + "/id"),
        LintCase(
            name: "fallback reuses its node's id",
            document: Fixture.flow(
                nodes: #"{ "type": "grid", "id": "g", "fallback": { "type": "vstack", "id": "g" } }"#),
            code: .duplicateNodeId, pointer: node0 + "/fallback/id"),
        LintCase(
            name: "unknown component type", document: Fixture.flow(nodes: #"{ "type": "map", "id": "m" }"#),
            code: .unknownComponentType, pointer: node0 + "/type"),
        LintCase(
            name: "input without fieldId", document: Fixture.flow(nodes: #"{ "type": "toggle", "id": "t" }"#),
            code: .missingMember, pointer: node0 + "/properties/fieldId"),
        LintCase(
            name: "button without action",
            document: Fixture.flow(nodes: #"{ "type": "button", "id": "b", "properties": { "title": "Go" } }"#),
            code: .missingMember, pointer: node0 + "/properties/action"),
        LintCase(
            name: "children on a text",
            document: Fixture.flow(
                nodes: #"{ "type": "text", "id": "t", "children": [ { "type": "spacer", "id": "s" } ] }"#),
            code: .childrenNotAllowed, pointer: node0 + "/children"),
        LintCase(
            name: "validation without fieldId",
            document: Fixture.flow(
                nodes: #"{ "type": "text", "id": "t", "properties": { "validation": [ { "rule": "required" } ] } }"#),
            code: .validationWithoutField, pointer: node0 + "/properties/validation"),
        LintCase(
            name: "picker without options",
            document: Fixture.flow(nodes: #"{ "type": "picker", "id": "p", "properties": { "fieldId": "p" } }"#),
            code: .missingMember, pointer: node0 + "/properties/options"),
        LintCase(
            name: "repeated option",
            document: Fixture.flow(
                nodes:
                    #"{ "type": "quickReplies", "id": "q", "properties": { "fieldId": "q", "options": ["a", "a"] } }"#),
            code: .duplicateOption, pointer: node0 + "/properties/options/1"),
        LintCase(
            name: "label not a string",
            document: Fixture.flow(
                nodes: #"{ "type": "toggle", "id": "t", "properties": { "fieldId": "t", "label": 1 } }"#),
            code: .wrongType, pointer: node0 + "/properties/label"),
        LintCase(
            name: "bad size token",
            document: Fixture.flow(nodes: #"{ "type": "divider", "id": "d", "properties": { "size": "12pt" } }"#),
            code: .invalidValue, pointer: node0 + "/properties/size"),
        LintCase(
            name: "fallback without the input's fieldId",
            document: Fixture.flow(
                nodes: #"""
                    { "type": "datePicker", "id": "d", "properties": { "fieldId": "born" },
                      "fallback": { "type": "textField", "id": "d2", "properties": { "fieldId": "birth" } } }
                    """#),
            code: .fallbackFieldMismatch, pointer: node0 + "/fallback"),
        LintCase(
            name: "duplicate fieldId across steps",
            document: Fixture.flow(
                root: input("email"),
                extraSteps: #", { "id": "b", "screen": { "id": "b", "root": \#(input("email")) } }"#,
                next: #"[ { "goto": "b" } ]"#),
            code: .duplicateFieldId, pointer: "/steps/1/screen/root/properties/fieldId"),
    ]
}

extension String {
    /// The string with its first occurrence of `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
