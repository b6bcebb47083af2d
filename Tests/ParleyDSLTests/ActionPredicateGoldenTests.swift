import ParleyCore
import ParleyDSL
import Testing

@Suite(.timeLimit(.minutes(10))) struct ActionPredicateGoldenTests {
    @Test func actions() {
        #expect(Golden.json(Action.submit) == #"{"type":"submit"}"#)
        #expect(Golden.json(Action.openURL("https://x.example")) == #"{"type":"openUrl","url":"https://x.example"}"#)
        #expect(Golden.json(Action.subscribe("orders")) == #"{"channel":"orders","type":"subscribe"}"#)
        #expect(
            Golden.json(Action.network(.post("orders/reorder", include: ["orderId"])))
                == #"{"request":{"include":["orderId"],"method":"POST","path":"orders/reorder"},"type":"network"}"#)
        #expect(
            Golden.json(Action.network(.get("status")).orElse(.submit))
                == #"{"fallback":{"type":"submit"},"request":{"method":"GET","path":"status"},"type":"network"}"#)
        let methods = [RequestSpec.put("a"), .patch("a"), .delete("a")].map(\.method)
        #expect(methods == ["PUT", "PATCH", "DELETE"])
    }

    @Test func buttonCarriesItsAction() {
        let node = Button("Reorder", action: .network(.post("orders/reorder", include: ["orderId"]))).node(id: "b")
        #expect(
            Golden.json(node)
                == #"{"id":"b","properties":{"action":{"request":{"include":["orderId"],"method":"POST","path":"orders/reorder"},"type":"network"},"title":"Reorder"},"type":"button"}"#
        )
    }

    /// Operators build predicate data; nothing is evaluated.
    @Test func predicates() {
        #expect(Golden.json(Field("purpose") == "work") == #"{"equals":"work","field":"purpose"}"#)
        #expect(Golden.json(Field("purpose") != "work") == #"{"not":{"equals":"work","field":"purpose"}}"#)
        #expect(Golden.json(Field("p").in(["a", "b"])) == #"{"field":"p","in":["a","b"]}"#)
        #expect(Golden.json(Field("p").isPresent) == #"{"field":"p","present":true}"#)
        #expect(Golden.json(Field("p").isEmpty) == #"{"field":"p","present":false}"#)
        #expect(Golden.json(!Field("p").isPresent) == #"{"not":{"field":"p","present":true}}"#)
        let all = Field("a") == "1" && Field("b") == "2" && Field("c") == "3"
        #expect(
            all
                == .all([
                    .equals(field: "a", value: "1"), .equals(field: "b", value: "2"), .equals(field: "c", value: "3"),
                ]))
        let any = Field("a") == "1" || Field("b") == "2" || Field("c").isPresent
        #expect(
            Golden.json(any)
                == #"{"any":[{"equals":"1","field":"a"},{"equals":"2","field":"b"},{"field":"c","present":true}]}"#)
        let mixed = (Field("a") == "1" || Field("b") == "2") && !Field("c").isPresent
        #expect(
            mixed
                == .all([
                    .any([.equals(field: "a", value: "1"), .equals(field: "b", value: "2")]),
                    .not(.present(field: "c", true)),
                ]))
    }
}
