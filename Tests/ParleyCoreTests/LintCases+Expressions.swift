import ParleyCore

extension LintCase {
    /// A flow declaring `computed` (JSON object text) whose first step shows `nodes`, then a
    /// second step `b` showing `later` (JSON text for its nodes).
    static func expressionFlow(computed: String = "{}", nodes: String, later: String = text) -> String {
        #"""
        { "schema": "parley.flow/1", "id": "f", "start": "a", "computed": \#(computed),
          "steps": [
            { "id": "a", "screen": { "id": "a", "root": { "type": "vstack", "id": "root", "children": [ \#(nodes) ] } },
              "next": [ { "goto": "b" } ] },
            { "id": "b", "screen": { "id": "b", "root": { "type": "vstack", "id": "root", "children": [ \#(later) ] } },
              "next": [] } ] }
        """#
    }

    /// A text node whose `text` is `value` (JSON text).
    static func textNode(_ value: String, id: String = "t") -> String {
        #"{ "type": "text", "id": "\#(id)", "properties": { "text": \#(value) } }"#
    }

    /// An expression nested `depth` levels deep.
    static func nestedExpression(_ depth: Int) -> String {
        var text = #"{ "literal": "1" }"#
        for _ in 1..<depth { text = #"{ "round": \#(text), "scale": 0 }"# }
        return text
    }

    static let expressions: [LintCase] = [
        LintCase(
            name: "an expression names no known form",
            document: expressionFlow(computed: #"{ "x": { "upper": { "field": "name" } } }"#, nodes: input("name")),
            code: .invalidExpression, pointer: "/computed/x"),
        LintCase(
            name: "an expression names two forms",
            document: expressionFlow(
                computed: #"{ "x": { "add": [], "literal": "1" } }"#, nodes: input("name")),
            code: .invalidExpression, pointer: "/computed/x"),
        LintCase(
            name: "sub takes two operands",
            document: expressionFlow(computed: #"{ "x": { "sub": [ { "literal": "1" } ] } }"#, nodes: input("name")),
            code: .invalidExpression, pointer: "/computed/x/sub"),
        LintCase(
            name: "an expression reads an unknown field",
            document: expressionFlow(computed: #"{ "x": { "field": "ghost" } }"#, nodes: input("name")),
            code: .unknownField, pointer: "/computed/x/field"),
        LintCase(
            name: "an expression reads an unknown computed value",
            document: expressionFlow(computed: #"{ "x": { "computed": "ghost" } }"#, nodes: input("name")),
            code: .unknownComputed, pointer: "/computed/x/computed"),
        LintCase(
            name: "a predicate reads an unknown computed value",
            document: expressionFlow(
                nodes: input("name") + ", "
                    + #"{ "type": "text", "id": "t2", "visibleWhen": { "computed": "ghost", "present": true }, "properties": { "text": "Hi" } }"#
            ),
            code: .unknownComputed, pointer: "/steps/0/screen/root/children/1/visibleWhen/computed"),
        LintCase(
            name: "computed values in a cycle",
            document: expressionFlow(
                computed: #"{ "a": { "computed": "b" }, "b": { "add": [ { "computed": "a" }, { "literal": "1" } ] } }"#,
                nodes: input("name")),
            code: .computedCycle, pointer: "/computed/a"),
        LintCase(
            name: "a computed value reading itself",
            document: expressionFlow(
                computed: #"{ "me": { "concat": [ { "computed": "me" } ] } }"#, nodes: input("name")),
            code: .computedCycle, pointer: "/computed/me"),
        LintCase(
            name: "an expression deeper than 16",
            document: expressionFlow(computed: #"{ "x": \#(nestedExpression(17)) }"#, nodes: input("name")),
            code: .limitExceeded,
            pointer: "/computed/x" + String(repeating: "/round", count: 16)),
        LintCase(
            name: "an expression with more than 256 parts",
            document: expressionFlow(
                computed:
                    #"{ "x": { "add": [ \#(Array(repeating: #"{ "literal": "1" }"#, count: 256).joined(separator: ", ")) ] } }"#,
                nodes: input("name")),
            code: .limitExceeded, pointer: "/computed/x"),
        LintCase(
            name: "a scale above 20",
            document: expressionFlow(
                computed: #"{ "x": { "round": { "literal": "1" }, "scale": 21 } }"#, nodes: input("name")),
            code: .limitExceeded, pointer: "/computed/x/scale"),
        LintCase(
            name: "a template reads a sensitive field",
            document: expressionFlow(
                nodes:
                    #"{ "type": "textField", "id": "p", "properties": { "fieldId": "passport", "sensitive": true } }"#,
                later: textNode(#"{ "template": [ "Your passport: ", { "field": "passport" } ] }"#)),
            code: .templateReadsSensitiveField,
            pointer: "/steps/1/screen/root/children/0/properties/text/template/1/field"),
        LintCase(
            name: "a template reads a sensitive field through a computed value",
            document: expressionFlow(
                computed: #"{ "shown": { "concat": [ { "field": "passport" } ] } }"#,
                nodes:
                    #"{ "type": "textField", "id": "p", "properties": { "fieldId": "passport", "sensitive": true } }"#,
                later: textNode(#"{ "template": [ { "computed": "shown" } ] }"#)),
            code: .templateReadsSensitiveField,
            pointer: "/steps/1/screen/root/children/0/properties/text/template/0/computed"),
        LintCase(
            name: "a template part that is a number",
            document: expressionFlow(nodes: input("name") + ", " + textNode(#"{ "template": [ 1 ] }"#)),
            code: .wrongType, pointer: "/steps/0/screen/root/children/1/properties/text/template/0"),
        LintCase(
            name: "visibleWhen reads a field of a later step",
            document: expressionFlow(
                nodes:
                    #"{ "type": "text", "id": "t0", "visibleWhen": { "field": "late", "present": true }, "properties": { "text": "Hi" } }"#,
                later: input("late")),
            code: .visibleWhenReadsLaterStep, pointer: "/steps/0/screen/root/children/0/visibleWhen/field"),
        LintCase(
            name: "requiredIf reads a field visibleWhen can hide (warning)",
            document: expressionFlow(
                nodes: input("purpose") + ", "
                    + #"{ "type": "textField", "id": "other", "visibleWhen": { "field": "purpose", "equals": "other" }, "properties": { "fieldId": "other" } }"#
                    + ", "
                    + input(
                        "why", rules: #"[ { "rule": "requiredIf", "when": { "field": "other", "present": true } } ]"#)),
            code: .fieldMayBeHidden, pointer: "/steps/0/screen/root/children/2/properties/validation/0/when/field"),
        LintCase(
            name: "a comparison bound that is not a number",
            document: expressionFlow(
                nodes: input("total") + ", "
                    + #"{ "type": "text", "id": "t2", "visibleWhen": { "field": "total", "greaterThan": "ten" }, "properties": { "text": "Hi" } }"#
            ),
            code: .invalidValue, pointer: "/steps/0/screen/root/children/1/visibleWhen/greaterThan"),
        LintCase(
            name: "matches with an invalid I-Regexp",
            document: expressionFlow(
                nodes: input("total") + ", "
                    + #"{ "type": "text", "id": "t2", "visibleWhen": { "field": "total", "matches": "^a" }, "properties": { "text": "Hi" } }"#
            ),
            code: .invalidPattern, pointer: "/steps/0/screen/root/children/1/visibleWhen/matches"),
        LintCase(
            name: "a predicate reading both a field and a computed value",
            document: expressionFlow(
                computed: #"{ "c": { "literal": "1" } }"#,
                nodes: input("total") + ", "
                    + #"{ "type": "text", "id": "t2", "visibleWhen": { "field": "total", "computed": "c", "present": true }, "properties": { "text": "Hi" } }"#
            ),
            code: .invalidPredicate, pointer: "/steps/0/screen/root/children/1/visibleWhen"),
        LintCase(
            name: "a template reading the current screen without fallback, no upgrade screen",
            document: expressionFlow(
                nodes: input("name") + ", " + textNode(#"{ "template": [ "Hi ", { "field": "name" } ] }"#, id: "hi")),
            code: .unservableStep, pointer: "/steps/0/screen/root/children/1/properties/text"),
        LintCase(
            name: "an input shown by the current screen's answers, no upgrade screen",
            document: expressionFlow(
                nodes: input("purpose") + ", "
                    + #"{ "type": "textField", "id": "other", "visibleWhen": { "field": "purpose", "equals": "other" }, "properties": { "fieldId": "other" } }"#
            ),
            code: .unservableStep, pointer: "/steps/0/screen/root/children/1/visibleWhen"),
    ]
}
