import ParleyCore
import ParleyDSL
import Testing

@Suite(.timeLimit(.minutes(10))) struct RuleGoldenTests {
    private func rules(_ node: Node) -> [String] { node.validation.map(Golden.json) }

    /// Text rules keep call order and wire names.
    @Test func textRules() {
        let node = TextField("code", label: "Code")
            .required("r").minLength(2, "min").maxLength(9, "max").pattern("[A-Z]+", "p")
            .oneOf(["AB", "CD"], "o").email("e").equalsField("other", "eq").node(id: "x")
        #expect(
            rules(node) == [
                #"{"message":"r","rule":"required"}"#,
                #"{"message":"min","rule":"minLength","value":2}"#,
                #"{"message":"max","rule":"maxLength","value":9}"#,
                #"{"message":"p","rule":"pattern","value":"[A-Z]+"}"#,
                #"{"message":"o","rule":"oneOf","values":["AB","CD"]}"#,
                #"{"message":"e","rule":"email"}"#,
                #"{"field":"other","message":"eq","rule":"equalsField"}"#,
            ])
    }

    /// Numeric rules are exact decimals, from integer or string literals.
    @Test func numericRules() {
        let node = TextField("amount", label: "Amount")
            .integer().minimum(-3).maximum("1e3").exclusiveMinimum("0.0075").exclusiveMaximum(100)
            .multipleOf("0.0001").node(id: "x")
        #expect(
            rules(node) == [
                #"{"rule":"integer"}"#,
                #"{"rule":"minimum","value":-3}"#,
                #"{"rule":"maximum","value":1000}"#,
                #"{"rule":"exclusiveMinimum","value":0.0075}"#,
                #"{"rule":"exclusiveMaximum","value":100}"#,
                #"{"rule":"multipleOf","value":0.0001}"#,
            ])
    }

    /// `requiredIf`, `date`, and `oneOf` on choice inputs.
    @Test func conditionalDateAndChoiceRules() {
        let date = DatePicker("when", label: "When").date(min: "2026-01-01", max: "2026-12-31", "d")
            .requiredIf(Field("kind") == "dated", "ri").node(id: "x")
        #expect(
            rules(date) == [
                #"{"max":"2026-12-31","message":"d","min":"2026-01-01","rule":"date"}"#,
                #"{"message":"ri","rule":"requiredIf","when":{"equals":"dated","field":"kind"}}"#,
            ])
        let picker = Picker("p", label: "P", options: ["a"]).oneOf(["a"]).node(id: "x")
        #expect(rules(picker) == [#"{"rule":"oneOf","values":["a"]}"#])
        let toggle = Toggle("t", label: "T").required().node(id: "x")
        #expect(rules(toggle) == [#"{"rule":"required"}"#])
    }

    /// Every rule the DSL writes decodes back to the same rule.
    @Test func rulesRoundTrip() throws {
        let node = TextField("n", label: "N").required("a").minimum("2.50").date(max: "2030-01-01")
            .requiredIf(Field("x").in(["1", "2"]) || !Field("y").isPresent).node(id: "n")
        #expect(try Node.decode(CanonicalJSON.encode(node.json)) == node)
    }
}
