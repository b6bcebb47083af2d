import ParleyCore

extension LintCase {
    static let rules: [LintCase] = [
        LintCase(
            name: "unknown rule kind", document: Fixture.flow(nodes: input("a", rules: #"[ { "rule": "luhn" } ]"#)),
            code: .unknownRuleKind, pointer: node0 + "/properties/validation/0/rule"),
        LintCase(
            name: "unknown rule kind in the short form",
            document: Fixture.flow(nodes: input("a", rules: #"{ "luhn": true }"#)),
            code: .unknownRuleKind, pointer: node0 + "/properties/validation/luhn"),
        LintCase(
            name: "short form flag not a boolean",
            document: Fixture.flow(nodes: input("a", rules: #"{ "required": "yes" }"#)),
            code: .invalidRuleParameter, pointer: node0 + "/properties/validation/required"),
        LintCase(
            name: "short form minLength not a number",
            document: Fixture.flow(nodes: input("a", rules: #"{ "minLength": "three" }"#)),
            code: .invalidRuleParameter, pointer: node0 + "/properties/validation/minLength"),
        LintCase(
            name: "single rule instead of an array",
            document: Fixture.flow(nodes: input("a", rules: #"{ "rule": "required" }"#)),
            code: .wrongType, pointer: node0 + "/properties/validation"),
        LintCase(
            name: "rule without kind", document: Fixture.flow(nodes: input("a", rules: #"[ { "message": "m" } ]"#)),
            code: .missingMember, pointer: node0 + "/properties/validation/0/rule"),
        LintCase(
            name: "minLength without value",
            document: Fixture.flow(nodes: input("a", rules: #"[ { "rule": "minLength" } ]"#)),
            code: .invalidRuleParameter, pointer: node0 + "/properties/validation/0/value"),
        LintCase(
            name: "negative maxLength",
            document: Fixture.flow(nodes: input("a", rules: #"[ { "rule": "maxLength", "value": -1 } ]"#)),
            code: .invalidRuleParameter, pointer: node0 + "/properties/validation/0/value"),
        LintCase(
            name: "fractional minLength",
            document: Fixture.flow(nodes: input("a", rules: #"[ { "rule": "minLength", "value": 1.5 } ]"#)),
            code: .invalidRuleParameter, pointer: node0 + "/properties/validation/0/value"),
        LintCase(
            name: "oneOf without values", document: Fixture.flow(nodes: input("a", rules: #"[ { "rule": "oneOf" } ]"#)),
            code: .invalidRuleParameter, pointer: node0 + "/properties/validation/0/values"),
        LintCase(
            name: "oneOf with a number",
            document: Fixture.flow(nodes: input("a", rules: #"[ { "rule": "oneOf", "values": ["x", 2] } ]"#)),
            code: .invalidRuleParameter, pointer: node0 + "/properties/validation/0/values/1"),
        LintCase(
            name: "multipleOf zero",
            document: Fixture.flow(nodes: input("a", rules: #"[ { "rule": "multipleOf", "value": 0 } ]"#)),
            code: .invalidRuleParameter, pointer: node0 + "/properties/validation/0/value"),
        LintCase(
            name: "minimum not a decimal",
            document: Fixture.flow(nodes: input("a", rules: #"[ { "rule": "minimum", "value": "1,5" } ]"#)),
            code: .invalidRuleParameter, pointer: node0 + "/properties/validation/0/value"),
        LintCase(
            name: "pattern not a string",
            document: Fixture.flow(nodes: input("a", rules: #"[ { "rule": "pattern", "value": 5 } ]"#)),
            code: .invalidRuleParameter, pointer: node0 + "/properties/validation/0/value"),
        LintCase(
            name: "date bound not a calendar date",
            document: Fixture.flow(nodes: input("a", rules: #"[ { "rule": "date", "min": "2023-02-29" } ]"#)),
            code: .invalidRuleParameter, pointer: node0 + "/properties/validation/0/min"),
        LintCase(
            name: "message not a string",
            document: Fixture.flow(nodes: input("a", rules: #"[ { "rule": "required", "message": 1 } ]"#)),
            code: .wrongType, pointer: node0 + "/properties/validation/0/message"),
        LintCase(
            name: "equalsField names an unknown field",
            document: Fixture.flow(nodes: input("a", rules: #"[ { "rule": "equalsField", "field": "b" } ]"#)),
            code: .unknownField, pointer: node0 + "/properties/validation/0/field"),
        LintCase(
            name: "requiredIf without when",
            document: Fixture.flow(nodes: input("a", rules: #"[ { "rule": "requiredIf" } ]"#)),
            code: .invalidRuleParameter, pointer: node0 + "/properties/validation/0/when"),
        LintCase(
            name: "requiredIf predicate names an unknown field",
            document: Fixture.flow(
                nodes: input(
                    "a", rules: #"[ { "rule": "requiredIf", "when": { "not": { "field": "z", "in": [] } } } ]"#)),
            code: .unknownField, pointer: node0 + "/properties/validation/0/when/not/field"),
        LintCase(
            name: "screen references a field it lacks",
            document: Fixture.screen(nodes: input("a", rules: #"[ { "rule": "equalsField", "field": "b" } ]"#)),
            kind: .screen, code: .unknownField, pointer: "/root/children/0/properties/validation/0/field"),
    ]
}
