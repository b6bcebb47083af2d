import ParleyCore

extension LintCase {
    static func nested(_ depth: Int) -> String {
        var node = #"{ "type": "text", "id": "leaf" }"#
        for level in 0..<depth { node = #"{ "type": "vstack", "id": "n\#(level)", "children": [ \#(node) ] }"# }
        return node
    }

    static let limitsCases: [LintCase] = [
        LintCase(
            name: "pattern too costly to match (default limit)",
            document: Fixture.flow(
                root: input(
                    "q",
                    rules: #"[ { "rule": "pattern", "value": "(.?.?.?.?.?.?.?.?.?.?.?.?.?.?.?.?.?.?.?.?){1000}" } ]"#)),
            code: .limitExceeded, pointer: "/steps/0/screen/root/properties/validation/0/value"),
        LintCase(
            name: "too many problems",
            document: Fixture.flow(nodes: #"{ "type": "a", "id": "1" }, { "type": "b", "id": "2" }"#),
            limits: DocumentLimits(maximumProblems: 1), code: .limitExceeded, pointer: ""),
        LintCase(
            name: "values nested too deep",
            document: Fixture.flow(nodes: #"{ "type": "text", "id": "t", "properties": { "future": [[[1]]] } }"#),
            limits: DocumentLimits(maximumValueDepth: 9), code: .limitExceeded,
            pointer: node0 + "/properties/future/0"),
        LintCase(
            name: "too many steps",
            document: Fixture.flow(
                root: text, extraSteps: #", { "id": "b", "screen": { "id": "b", "root": \#(text) } }"#,
                next: #"[ { "goto": "b" } ]"#),
            limits: DocumentLimits(maximumStepsPerFlow: 1), code: .limitExceeded, pointer: "/steps"),
        LintCase(
            name: "nodes nested too deep", document: Fixture.flow(root: nested(3)),
            limits: DocumentLimits(maximumNodeDepth: 3), code: .limitExceeded,
            pointer: "/steps/0/screen/root/children/0/children/0/children/0"),
        LintCase(
            name: "too many nodes",
            document: Fixture.flow(nodes: "\(text), \(text.replacingFirst("\"t\"", with: "\"u\""))"),
            limits: DocumentLimits(maximumNodesPerScreen: 2), code: .limitExceeded, pointer: node1),
        LintCase(
            name: "string too long",
            document: Fixture.flow(nodes: #"{ "type": "text", "id": "t", "properties": { "text": "abcdef" } }"#),
            limits: DocumentLimits(maximumStringLength: 5), code: .limitExceeded, pointer: node0 + "/properties/text"),
        LintCase(
            name: "identifier too long",
            document: Fixture.flow(nodes: #"{ "type": "text", "id": "abcdef" }"#),
            limits: DocumentLimits(maximumIdentifierLength: 5), code: .limitExceeded, pointer: node0 + "/id"),
        LintCase(
            name: "too many rules",
            document: Fixture.flow(nodes: input("a", rules: #"[ { "rule": "required" }, { "rule": "email" } ]"#)),
            limits: DocumentLimits(maximumRulesPerInput: 1), code: .limitExceeded,
            pointer: node0 + "/properties/validation"),
        LintCase(
            name: "too many options",
            document: Fixture.flow(
                nodes: #"{ "type": "picker", "id": "p", "properties": { "fieldId": "p", "options": ["a", "b", "c"] } }"#
            ),
            limits: DocumentLimits(maximumOptionsPerInput: 2), code: .limitExceeded,
            pointer: node0 + "/properties/options"),
        LintCase(
            name: "pattern longer than 1,000 scalars",
            document: Fixture.flow(
                nodes: input(
                    "a", rules: #"[ { "rule": "pattern", "value": "\#(String(repeating: "é", count: 1_001))" } ]"#)),
            code: .limitExceeded, pointer: node0 + "/properties/validation/0/value"),
        LintCase(
            name: "predicates nested too deep",
            document: Fixture.flow(
                root: input("q"),
                next: #"[ { "when": { "not": { "not": { "field": "q", "present": true } } }, "goto": "a" } ]"#),
            limits: DocumentLimits(maximumPredicateDepth: 2), code: .limitExceeded,
            pointer: "/steps/0/next/0/when/not/not"),
        LintCase(
            name: "action fallbacks chained too long",
            document: Fixture.flow(
                nodes: button(
                    #"{ "type": "submit", "fallback": { "type": "submit", "fallback": { "type": "submit" } } }"#)),
            limits: DocumentLimits(maximumActionFallbacks: 1), code: .limitExceeded,
            pointer: node0 + "/properties/action/fallback/fallback"),
        LintCase(
            name: "too many properties",
            document: Fixture.flow(
                nodes: #"{ "type": "text", "id": "t", "properties": { "text": "a", "style": "b" } }"#),
            limits: DocumentLimits(maximumPropertiesPerNode: 1), code: .limitExceeded, pointer: node0 + "/properties"),
    ]
}
