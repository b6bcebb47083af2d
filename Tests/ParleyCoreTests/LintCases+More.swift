import ParleyCore

extension LintCase {
    static let text = #"{ "type": "text", "id": "t" }"#

    static let flows: [LintCase] = [
        LintCase(
            name: "pattern that is not an I-Regexp",
            document: Fixture.flow(
                root: input("q", rules: #"[ { "rule": "pattern", "value": "^[A-Z]{2}$" } ]"#)),
            code: .invalidPattern, pointer: "/steps/0/screen/root/properties/validation/0/value"),
        LintCase(
            name: "a 1.2-only input without fallback and no upgrade screen",
            document: Fixture.flow(
                root: #"{ "type": "datePicker", "id": "d", "properties": { "fieldId": "when", "label": "When" } }"#),
            code: .unservableStep, pointer: "/steps/0"),
        LintCase(
            name: "an upgrade screen old cores cannot render",
            document: """
                { "schema": "parley.flow/1", "id": "f", "start": "a",
                  "steps": [ { "id": "a", "screen": { "id": "a", "root": \(text) }, "next": [] } ],
                  "upgrade": { "id": "u", "root": { "type": "carousel", "id": "c" } } }
                """,
            code: .unservableUpgradeScreen, pointer: "/upgrade"),
        LintCase(
            name: "a retention that is not an ISO 8601 duration",
            document: #"{ "schema": "parley.flow/1", "id": "f", "start": "a", "retention": "90 days", "#
                + #""steps": [ { "id": "a", "screen": { "id": "a", "root": \#(text) }, "next": [] } ] }"#,
            code: .invalidValue, pointer: "/retention"),
        LintCase(
            name: "start names no step",
            document: #"{ "schema": "parley.flow/1", "id": "f", "start": "nowhere", "steps": [] }"#,
            code: .unknownStep, pointer: "/start"),
        LintCase(
            name: "goto names no step", document: Fixture.flow(root: text, next: #"[ { "goto": "nowhere" } ]"#),
            code: .unknownStep, pointer: "/steps/0/next/0/goto"),
        LintCase(
            name: "unreachable step",
            document: Fixture.flow(
                root: text, extraSteps: #", { "id": "b", "screen": { "id": "b", "root": \#(text) } }"#),
            code: .unreachableStep, pointer: "/steps/1"),
        LintCase(
            name: "duplicate step id",
            document: Fixture.flow(
                root: text, extraSteps: #", { "id": "a", "screen": { "id": "b", "root": \#(text) } }"#),
            code: .duplicateStepId, pointer: "/steps/1/id"),
        LintCase(
            name: "transition predicate names an unknown field",
            document: Fixture.flow(
                root: input("q"), next: #"[ { "when": { "field": "nope", "equals": "y" }, "goto": "a" } ]"#),
            code: .unknownField, pointer: "/steps/0/next/0/when/field"),
        LintCase(
            name: "predicate with two operators",
            document: Fixture.flow(
                root: input("q"),
                next: #"[ { "when": { "field": "q", "equals": "y", "present": true }, "goto": "a" } ]"#),
            code: .invalidPredicate, pointer: "/steps/0/next/0/when"),
        LintCase(
            name: "predicate present not a boolean",
            document: Fixture.flow(
                root: input("q"), next: #"[ { "when": { "field": "q", "present": "yes" }, "goto": "a" } ]"#),
            code: .wrongType, pointer: "/steps/0/next/0/when/present"),
        LintCase(
            name: "bundle with a repeated flow id",
            document: #"""
                { "schema": "parley.bundle/1", "channel": "production", "flows": [
                  { "schema": "parley.flow/1", "id": "f", "start": "a", "steps": [ { "id": "a", "screen": { "id": "a", "root": { "type": "text", "id": "t" } } } ] },
                  { "schema": "parley.flow/1", "id": "f", "start": "a", "steps": [ { "id": "a", "screen": { "id": "a", "root": { "type": "text", "id": "t" } } } ] } ] }
                """#,
            kind: .document, code: .duplicateFlowId, pointer: "/flows/1/id"),
    ]

    static let actions: [LintCase] = [
        LintCase(
            name: "unknown action type", document: Fixture.flow(nodes: button(#"{ "type": "teleport" }"#)),
            code: .unknownActionType, pointer: node0 + "/properties/action/type"),
        LintCase(
            name: "openUrl over http",
            document: Fixture.flow(nodes: button(#"{ "type": "openUrl", "url": "http://example.com" }"#)),
            code: .openUrlNotHttps, pointer: node0 + "/properties/action/url"),
        LintCase(
            name: "openUrl javascript",
            document: Fixture.flow(nodes: button(#"{ "type": "openUrl", "url": "javascript:x" }"#)),
            code: .openUrlNotHttps, pointer: node0 + "/properties/action/url"),
        LintCase(
            name: "subscribe without channel", document: Fixture.flow(nodes: button(#"{ "type": "subscribe" }"#)),
            code: .missingMember, pointer: node0 + "/properties/action/channel"),
        LintCase(
            name: "network with absolute URL",
            document: network(#"{ "method": "POST", "path": "https://evil.example/x" }"#),
            code: .invalidNetworkPath, pointer: node1 + "/properties/action/request/path"),
        LintCase(
            name: "network with //host", document: network(#"{ "method": "GET", "path": "//evil.example/x" }"#),
            code: .invalidNetworkPath, pointer: node1 + "/properties/action/request/path"),
        LintCase(
            name: "network with .. segment", document: network(#"{ "method": "GET", "path": "orders/../admin" }"#),
            code: .invalidNetworkPath, pointer: node1 + "/properties/action/request/path"),
        LintCase(
            name: "network with encoded ..", document: network(#"{ "method": "GET", "path": "orders/%2E%2e/admin" }"#),
            code: .invalidNetworkPath, pointer: node1 + "/properties/action/request/path"),
        LintCase(
            name: "network with leading slash", document: network(#"{ "method": "GET", "path": "/admin" }"#),
            code: .invalidNetworkPath, pointer: node1 + "/properties/action/request/path"),
        LintCase(
            name: "network with unknown method", document: network(#"{ "method": "FETCH", "path": "orders" }"#),
            code: .invalidNetworkMethod, pointer: node1 + "/properties/action/request/method"),
        LintCase(
            name: "network with lowercase method", document: network(#"{ "method": "post", "path": "orders" }"#),
            code: .invalidNetworkMethod, pointer: node1 + "/properties/action/request/method"),
        LintCase(
            name: "network with headers",
            document: network(#"{ "method": "GET", "path": "orders", "headers": { "Authorization": "x" } }"#),
            code: .networkHeadersNotAllowed, pointer: node1 + "/properties/action/request/headers"),
        LintCase(
            name: "network include names an unknown field",
            document: network(#"{ "method": "POST", "path": "orders", "include": ["name", "ghost"] }"#),
            code: .unknownField, pointer: node1 + "/properties/action/request/include/1"),
        LintCase(
            name: "network without request", document: Fixture.flow(nodes: button(#"{ "type": "network" }"#)),
            code: .missingMember, pointer: node0 + "/properties/action/request"),
        LintCase(
            name: "unknown action inside a fallback",
            document: Fixture.flow(nodes: button(#"{ "type": "submit", "fallback": { "type": "warp" } }"#)),
            code: .unknownActionType, pointer: node0 + "/properties/action/fallback/type"),
    ]
}
