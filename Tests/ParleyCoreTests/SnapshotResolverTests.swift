import ParleyCore
import Testing

/// DESIGN.md "Expressions": a session snapshot resolves what depends only on earlier steps.
@Suite struct SnapshotResolverTests {
    static let flow = """
        { "schema": "parley.flow/1", "id": "f", "start": "a", "locales": ["en", "fr"],
          "computed": { "double": { "mul": [ { "field": "n" }, { "literal": "2" } ] },
                        "live": { "concat": [ { "field": "here" } ] } },
          "steps": [
            { "id": "a", "screen": { "id": "a", "root": { "type": "textField", "id": "n", "properties": { "fieldId": "n" } } },
              "next": [ { "goto": "b" } ] },
            { "id": "b", "screen": { "id": "b", "root": { "type": "vstack", "id": "root", "children": [
                { "type": "text", "id": "shown", "visibleWhen": { "field": "n", "equals": "21" },
                  "properties": { "text": { "template": [ { "en": "Twice: ", "fr": "Double : " }, { "computed": "double" } ] } } },
                { "type": "text", "id": "dropped", "visibleWhen": { "field": "n", "equals": "0" }, "properties": { "text": "Zero" } },
                { "type": "textField", "id": "here", "properties": { "fieldId": "here" } },
                { "type": "text", "id": "echo", "visibleWhen": { "computed": "live", "present": true },
                  "properties": { "text": { "template": [ "You typed ", { "computed": "live" } ], "fallback": "Thanks" } } },
                { "type": "text", "id": "bare", "properties": { "text": { "template": [ { "field": "here" } ] } } } ] } },
              "next": [] } ] }
        """

    @Test func pathOnlyVisibilityAndTemplatesAreResolvedForEveryCore() throws {
        let flow = try Flow.decode(Self.flow).localized(to: "fr")
        let step = try #require(flow.step("b"))
        for live in [true, false] {
            let result = SnapshotResolver.resolve(flow: flow, step: step, context: ["n": "21"], liveExpressions: live)
            let nodes = result.screen.root.children
            #expect(nodes.map(\.id) == ["shown", "here", "echo", "bare"])
            #expect(nodes[0].visibleWhen == nil)
            #expect(nodes[0].properties["text"] == "Double : 42")
            #expect(nodes[2].visibleWhen != nil, "reads the screen: kept")
            if live {
                #expect(nodes[2].template("text") != nil)
                #expect(result.needsCapability.isEmpty)
            } else {
                #expect(nodes[2].properties["text"] == "Thanks")
                #expect(result.needsCapability == ["echo", "bare"])
            }
        }
    }

    @Test func dependenciesFollowComputedValues() throws {
        let flow = try Flow.decode(Self.flow)
        let step = try #require(flow.step("b"))
        let dependencies = ScreenDependencies(flow: flow, screen: step.screen)
        #expect(dependencies.readsScreen(Expression.computed("live")))
        #expect(!dependencies.readsScreen(Expression.computed("double")))
        #expect(dependencies.readsScreen(Predicate.present(.field("here"), true)))
    }
}
