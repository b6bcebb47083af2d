import ParleyCore
import ParleyDSL
import Testing

@Suite(.timeLimit(.minutes(10))) struct FallbackTests {
    /// An input's fallback carries the same fieldId and, if it declares no
    /// rules, the original's rules; its id is `<owner>-fallback`.
    @Test func inputFallbackInheritsFieldAndRules() {
        let node = QuickReplies("topic", options: ["a", "b"]).required("pick")
            .fallback { field in Picker(field, label: "Topic", options: ["a", "b"]) }
            .node(id: "ignored")
        #expect(node.id == "ignored")
        #expect(
            Golden.json(node.fallback!)
                == #"{"id":"ignored-fallback","properties":{"fieldId":"topic","label":"Topic","options":["a","b"],"validation":[{"message":"pick","rule":"required"}]},"type":"picker"}"#
        )
    }

    /// A fallback keeps its own rules, and its fieldId is forced to the owner's.
    @Test func inputFallbackKeepsOwnRulesAndForcesFieldId() {
        let node = DatePicker("expiry", label: "Expiry").required().date()
            .fallback { _ in TextField("typo", label: "Expiry").pattern("[0-9-]+") }
            .node(id: "e")
        #expect(node.fallback?.fieldId == "expiry")
        #expect(node.fallback?.validation == [Rule(.pattern("[0-9-]+"))])
        #expect(node.fallback?.type == .textField)
    }

    /// A content node's fallback, with children deriving ids from the fallback.
    @Test func contentFallback() throws {
        let screen = Screen("s") {
            Card("Track", action: .openURL("https://t.example")) { Text("Live") }
                .fallback { VStack { Button("Track", action: .openURL("https://t.example")) } }
        }
        let card = screen.root.children[0]
        #expect(card.id == "root-card1")
        #expect(card.fallback?.id == "root-card1-fallback")
        #expect(card.fallback?.children.map(\.id) == ["root-card1-fallback-button1"])
        #expect(try Screen.decode(screen.canonicalBytes) == screen)
    }
}
