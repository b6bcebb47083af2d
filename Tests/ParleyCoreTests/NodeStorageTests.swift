import Testing

@testable import ParleyCore

/// `Node` shares one copy-on-write storage between copies but keeps value semantics.
@Suite(.timeLimit(.minutes(10))) struct NodeStorageTests {
    static func make() -> Node {
        Node(
            type: ComponentType(name: "stack"), id: "root", properties: JSONObject([("gap", .string("m"))]),
            children: [
                Node(type: ComponentType(name: "text"), id: "t", properties: JSONObject([("text", .string("hi"))]))
            ],
            fallback: Node(type: ComponentType(name: "text"), id: "f"))
    }

    @Test func mutatingACopyLeavesTheOriginalAlone() {
        let original = Self.make()
        var copy = original
        #expect(copy == original)
        copy.properties["gap"] = .string("l")
        copy.children.append(Node(type: ComponentType(name: "text"), id: "u"))
        copy.children[0].id = "t2"
        copy.fallback = nil
        copy.id = "other"
        #expect(original.properties["gap"] == .string("m"))
        #expect(original.children.map(\.id) == ["t"])
        #expect(original.fallback?.id == "f")
        #expect(original.id == "root")
        #expect(copy.children.map(\.id) == ["t2", "u"])
        #expect(copy.fallback == nil)
        #expect(copy != original)
    }

    @Test func equalityComparesMembersNotIdentity() {
        #expect(Self.make() == Self.make())
        var changed = Self.make()
        changed.validation = [Rule(.required)]
        #expect(changed != Self.make())
    }

    @Test func aUniquelyHeldNodeMutatesInPlaceAndStaysCorrect() throws {
        var node = Self.make()
        for index in 0..<100 { node.children.append(Node(type: ComponentType(name: "text"), id: "c\(index)")) }
        #expect(node.children.count == 101)
        #expect(node == (try Node(json: node.json, at: JSONPointer(tokens: []))))
    }
}
