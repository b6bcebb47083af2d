import ParleyCore
import ParleyDSL
import Testing

/// The DSL's expressions produce exactly DESIGN.md "Expressions"' wire forms.
@Suite(.timeLimit(.minutes(1))) struct ExpressionGoldenTests {
    @Test func comparisonsAreExactDecimalPredicates() {
        #expect(Golden.json(Field("total") >= "10000") == #"{"atLeast":"10000","field":"total"}"#)
        #expect(Golden.json(Field("total") > "0.5") == #"{"field":"total","greaterThan":"0.5"}"#)
        #expect(Golden.json(Field("total") < "-3") == #"{"field":"total","lessThan":"-3"}"#)
        #expect(Golden.json(Field("total") <= "1e3") == #"{"atMost":"1e3","field":"total"}"#)
        #expect(Golden.json(Computed("premium") > "100") == #"{"computed":"premium","greaterThan":"100"}"#)
        #expect(Golden.json(Computed("premium") == "42.5") == #"{"computed":"premium","equals":"42.5"}"#)
        #expect(Golden.json(Computed("tier").in(["a", "b"])) == #"{"computed":"tier","in":["a","b"]}"#)
        #expect(Golden.json(Computed("premium").isPresent) == #"{"computed":"premium","present":true}"#)
        #expect(Golden.json(Field("postcode").matches("[0-9]{5}")) == #"{"field":"postcode","matches":"[0-9]{5}"}"#)
        let both = Field("country") == "FR" && Computed("premium") >= "10000"
        #expect(
            both
                == .all([
                    .equals(field: "country", value: "FR"), .compare(.computed("premium"), .atLeast, bound: "10000"),
                ]))
    }

    @Test func everyFormulaForm() {
        func wire(_ formula: Formula) -> String { Golden.json(formula.expression.json) }
        #expect(wire(.add("0.1", "0.2")) == #"{"add":[{"literal":"0.1"},{"literal":"0.2"}]}"#)
        #expect(wire(.sub(Field("a"), Computed("b"))) == #"{"sub":[{"field":"a"},{"computed":"b"}]}"#)
        #expect(wire(.mul(Field("a"), "2")) == #"{"mul":[{"field":"a"},{"literal":"2"}]}"#)
        #expect(wire(.div(Field("a"), "3", scale: 2)) == #"{"div":[{"field":"a"},{"literal":"3"}],"scale":2}"#)
        #expect(wire(.round(Field("a"), scale: 0)) == #"{"round":{"field":"a"},"scale":0}"#)
        #expect(wire(.min(Field("a"), "5")) == #"{"min":[{"field":"a"},{"literal":"5"}]}"#)
        #expect(wire(.max(Field("a"), "5")) == #"{"max":[{"field":"a"},{"literal":"5"}]}"#)
        #expect(
            wire(.concat(Field("first"), " ", Field("last")))
                == #"{"concat":[{"field":"first"},{"literal":" "},{"field":"last"}]}"#)
        #expect(wire(.count(Field("a"), Field("b"))) == #"{"count":["a","b"]}"#)
        #expect(wire(.literal("x")) == #"{"literal":"x"}"#)
        #expect(
            wire(.if(Field("p") == "work", then: "1.2", else: .round(Computed("base"), scale: 1)))
                == #"{"else":{"round":{"computed":"base"},"scale":1},"if":{"equals":"work","field":"p"},"then":{"literal":"1.2"}}"#
        )
    }

    @Test func visibleWhenIsANodeMemberBesideFallback() {
        let node = TextField("otherPurpose", label: "Other — please specify")
            .required("Tell us more.")
            .visible(when: Field("purpose") == "other")
            .node(id: "x")
        #expect(node.visibleWhen == .equals(field: "purpose", value: "other"))
        #expect(
            Golden.json(node)
                == #"{"id":"x","properties":{"fieldId":"otherPurpose","label":"Other — please specify","validation":[{"message":"Tell us more.","rule":"required"}]},"type":"textField","visibleWhen":{"equals":"other","field":"purpose"}}"#
        )
        let stacked = HStack { Text("a").visible(when: Field("p").isPresent).size(.fill) }.node(id: "h")
        #expect(stacked.children.first?.visibleWhen == .present(field: "p", true))
        let sized = HStack { Text("a").size(.fill).visible(when: Field("p").isEmpty) }.node(id: "h")
        #expect(sized.children.first?.visibleWhen == .present(field: "p", false))
    }

    @Test func interpolationBuildsATemplate() {
        let node = Text("Thanks, \(Field("firstName")) — your premium is \(Computed("premium"))").node(id: "t")
        #expect(
            Golden.json(node)
                == #"{"id":"t","properties":{"text":{"template":["Thanks, ",{"field":"firstName"}," — your premium is ",{"computed":"premium"}]}},"type":"text"}"#
        )
        #expect(
            node.template("text")
                == Template(parts: [
                    .text("Thanks, "), .expression(.field("firstName")), .text(" — your premium is "),
                    .expression(.computed("premium")),
                ]))
    }

    @Test func templateFallbackAndFormulaParts() {
        let node = Text("Total: \(Formula.round(Computed("premium"), scale: 0))!", style: .headline, fallback: "Total")
            .node(id: "t")
        #expect(
            Golden.json(node)
                == #"{"id":"t","properties":{"style":"headline","text":{"fallback":"Total","template":["Total: ",{"round":{"computed":"premium"},"scale":0},"!"]}},"type":"text"}"#
        )
        let label = TextField("n", label: DisplayText("Hi \(Field("first"))", fallback: "Hi")).node(id: "n")
        #expect(Golden.json(label.properties["label"]!) == #"{"fallback":"Hi","template":["Hi ",{"field":"first"}]}"#)
    }

    /// Interpolating only strings keeps a plain string: no template for older cores to fall back from.
    @Test func textWithoutValuesStaysPlain() {
        let name = "Ana"
        #expect(
            Golden.json(Text("Hello \(name), welcome").node(id: "t").properties["text"]!) == #""Hello Ana, welcome""#)
        #expect(Golden.json(Text("Fixed", fallback: "unused").node(id: "t").properties["text"]!) == #""Fixed""#)
        #expect(
            Golden.json(Button("Go \(Field("a"))", action: .submit).node(id: "b").properties["title"]!)
                == #"{"template":["Go ",{"field":"a"}]}"#)
    }

    @Test func computedValuesAreDeclaredAmongStepsInNameOrder() throws {
        let flow = Flow("f") {
            Computed("total") { .mul(Computed("premium"), Field("travellers")) }
            Step("a") { Text("A") }
            Computed("premium") { .div(Field("cost"), "40", scale: 2) }
            Computed("flag") { "yes" }
            Computed("echo") { Field("cost") }
        }
        #expect(flow.computed.map(\.name) == ["echo", "flag", "premium", "total"])
        #expect(flow.steps.map(\.id) == ["a"])
        #expect(flow.start == "a")
        #expect(
            Golden.json(flow.json["computed"]!)
                == #"{"echo":{"field":"cost"},"flag":{"literal":"yes"},"premium":{"div":[{"field":"cost"},{"literal":"40"}],"scale":2},"total":{"mul":[{"computed":"premium"},{"field":"travellers"}]}}"#
        )
        #expect(try Flow.decode(flow.canonicalBytes) == flow)
    }

    /// Template text parts and fallbacks translate like any other string (DESIGN.md "Localization").
    @Test func templatePartsAreLocalized() throws {
        let flow = Flow("f") {
            Step("a") { Text("Thanks, \(Field("n"))!", fallback: "Thanks!") }
        }
        .translated(from: "en", ["fr": ["Thanks, ": "Merci, ", "!": " !", "Thanks!": "Merci !"]])
        let step = try #require(flow.json["steps"]?.arrayValue?.first)
        let text = try #require(step["screen"]?["root"]?["children"]?.arrayValue?.first?["properties"]?["text"])
        #expect(
            Golden.json(text)
                == #"{"fallback":{"en":"Thanks!","fr":"Merci !"},"template":[{"en":"Thanks, ","fr":"Merci, "},{"field":"n"},{"en":"!","fr":" !"}]}"#
        )
        let french = flow.localized(to: "fr")
        #expect(french.steps[0].screen.root.children[0].template("text")?.parts.first == .text("Merci, "))
        #expect(try Flow.decode(flow.canonicalBytes) == flow)
    }
}
