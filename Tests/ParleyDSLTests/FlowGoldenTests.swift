import ParleyCore
import ParleyDSL
import Testing

@Suite(.timeLimit(.minutes(10))) struct FlowGoldenTests {
    static let flow = Flow("f", title: "F", upgrade: Screen("upgrade") { Text("Update") }) {
        Step("one", title: "One") {
            Picker("purpose", label: "Purpose", options: ["work", "fun"])
            Button("Next", action: .submit).id("next")
        } next: {
            Next(when: Field("purpose") == "work", go: "two")
            Next(go: "three")
        }
        Step("two") {
            Text("Two")
        } next: {
            Next(go: "three")
        }
        for name in ["three"] {
            Step(name) { Text(name) }
        }
    }

    @Test func aRetainedFlowCarriesItsRetentionAndLints() {
        let json = Self.flow.retained(for: .days(30)).json
        #expect(json["retention"] == "P30D")
        #expect(FlowLinter().lint(flow: json).isEmpty)
        #expect(Self.flow.json["retention"] == nil, "no retention unless asked: the server default applies")
    }

    @Test func flowJSON() {
        #expect(
            Golden.json(Self.flow)
                == #"{"id":"f","schema":"parley.flow/1","start":"one","steps":[{"id":"one","next":[{"goto":"two","when":{"equals":"work","field":"purpose"}},{"goto":"three"}],"screen":{"id":"one","root":{"children":[{"id":"purpose","properties":{"fieldId":"purpose","label":"Purpose","options":["work","fun"]},"type":"picker"},{"id":"next","properties":{"action":{"type":"submit"},"title":"Next"},"type":"button"}],"id":"root","properties":{},"type":"vstack"},"schema":"parley.screen/1","title":"One"}},{"id":"two","next":[{"goto":"three"}],"screen":{"id":"two","root":{"children":[{"id":"root-text1","properties":{"text":"Two"},"type":"text"}],"id":"root","properties":{},"type":"vstack"},"schema":"parley.screen/1"}},{"id":"three","next":[],"screen":{"id":"three","root":{"children":[{"id":"root-text1","properties":{"text":"three"},"type":"text"}],"id":"root","properties":{},"type":"vstack"},"schema":"parley.screen/1"}}],"title":"F","upgrade":{"id":"upgrade","root":{"children":[{"id":"root-text1","properties":{"text":"Update"},"type":"text"}],"id":"root","properties":{},"type":"vstack"},"schema":"parley.screen/1"}}"#
        )
    }

    /// DSL → JSON → decode → equal.
    @Test func flowRoundTrip() throws {
        #expect(try Flow.decode(Self.flow.canonicalBytes) == Self.flow)
    }

    @Test func explicitStartAndPrebuiltScreen() {
        let screen = Screen("s") { Text("x") }
        let flow = Flow("f", start: "b") {
            Step("a", screen: screen)
            Step("b", screen: screen) { Next(go: "a") }
        }
        #expect(flow.start == "b")
        #expect(flow.steps.map(\.next) == [[], [Transition(goto: "a")]])
    }
}
