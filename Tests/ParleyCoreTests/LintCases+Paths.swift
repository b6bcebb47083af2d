import ParleyCore

extension LintCase {
    /// A diamond: `a` (field `x`) branches to `b` (`y`) or `c` (`z`); both go to `d` (holding
    /// `d`'s nodes, JSON text), then `e`, terminal. Only `a` and `d` lie on every path to `d`.
    static func diamond(d nodes: String, dNext: String = #"[ { "goto": "e" } ]"#, aRules: String = "[]") -> String {
        func step(_ id: String, _ nodes: String, next: String) -> String {
            #"{ "id": "\#(id)", "screen": { "id": "\#(id)", "root": { "type": "vstack", "id": "root", "children": [ \#(nodes) ] } }, "next": \#(next) }"#
        }
        let steps = [
            step(
                "a", input("x", rules: aRules),
                next: #"[ { "when": { "field": "x", "equals": "1" }, "goto": "b" }, { "goto": "c" } ]"#),
            step("b", input("y"), next: #"[ { "goto": "d" } ]"#),
            step("c", input("z"), next: #"[ { "goto": "d" } ]"#),
            step("d", nodes, next: dNext),
            step("e", text, next: "[]"),
        ]
        return
            #"{ "schema": "parley.flow/1", "id": "f", "start": "a", "steps": [ \#(steps.joined(separator: ", ")) ] }"#
    }

    static let dNode0 = "/steps/3/screen/root/children/0"

    static let paths: [LintCase] = [
        LintCase(
            name: "equalsField names a field of a sibling branch",
            document: diamond(d: input("w", rules: #"[ { "rule": "equalsField", "field": "y" } ]"#)),
            code: .fieldNotOnEveryPath, pointer: dNode0 + "/properties/validation/0/field"),
        LintCase(
            name: "equalsField in the short form names a field of a sibling branch",
            document: diamond(d: input("w", rules: #"{ "equalsField": "z" }"#)),
            code: .fieldNotOnEveryPath, pointer: dNode0 + "/properties/validation/equalsField"),
        LintCase(
            name: "requiredIf names a field of a sibling branch",
            document: diamond(
                d: input(
                    "w", rules: #"[ { "rule": "requiredIf", "when": { "not": { "field": "y", "present": true } } } ]"#)),
            code: .fieldNotOnEveryPath, pointer: dNode0 + "/properties/validation/0/when/not/field"),
        LintCase(
            name: "a transition predicate names a field of a sibling branch",
            document: diamond(
                d: input("w"),
                dNext:
                    #"[ { "when": { "any": [ { "field": "x", "equals": "1" }, { "field": "z", "equals": "2" } ] }, "goto": "e" }, { "goto": "e" } ]"#
            ),
            code: .fieldNotOnEveryPath, pointer: "/steps/3/next/0/when/any/1/field"),
        LintCase(
            name: "requiredIf names a field of a later step",
            document: diamond(
                d: input("w"), aRules: #"[ { "rule": "requiredIf", "when": { "field": "w", "equals": "1" } } ]"#),
            code: .fieldNotOnEveryPath, pointer: "/steps/0/screen/root/children/0/properties/validation/0/when/field"),
    ]
}
