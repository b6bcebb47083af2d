import ParleyCore

/// Builds random screens for ``GatingPropertyTests``: every component type, an
/// unknown one, registry and unknown properties, action and node fallback
/// chains. Fallbacks stand in for their node as DESIGN.md requires: an input's
/// fallback carries the same `fieldId`, a container's carries the same inputs.
struct ScreenGenerator {
    var random: GatingPropertyTests.Random
    private var nextId = 0
    private var nextField = 0

    init(random: GatingPropertyTests.Random) { self.random = random }

    mutating func screen() -> Screen {
        Screen(id: "random", root: node(depth: 0, kind: .container))
    }

    private enum Kind { case container, input, leaf }

    private mutating func freshId() -> String {
        nextId += 1
        return "n\(nextId)"
    }

    private mutating func node(depth: Int, kind: Kind) -> Node {
        switch kind {
        case .container: return container(depth: depth, children: nil)
        case .input:
            nextField += 1
            return input(field: "f\(nextField)", depth: 0)
        case .leaf: return leaf(depth: 0)
        }
    }

    private mutating func container(depth: Int, children given: [Node]?) -> Node {
        let type = random.pick([ComponentType.vstack, .hstack, .card, .carousel, .grid, .unknown("panel")])
        var children = given ?? []
        if given == nil, depth < 3 {
            for _ in 0..<random.below(5) {
                let kind = random.pick([Kind.container, .input, .input, .leaf, .leaf, .leaf])
                children.append(node(depth: depth + 1, kind: kind))
            }
        }
        var result = Node(type: type, id: freshId(), properties: properties(for: type), children: children)
        if type == .card, random.chance(50) { result.action = action(depth: 0) }
        if random.chance(50) {
            var copies: [Node] = []
            for child in children { copies.append(reidentified(child)) }
            result.fallback =
                random.chance(60)
                ? Node(type: .vstack, id: freshId(), children: copies) : container(depth: depth, children: copies)
        }
        return result
    }

    private mutating func input(field: String, depth: Int) -> Node {
        let type = random.pick([
            ComponentType.textField, .picker, .quickReplies, .datePicker, .toggle, .unknown("slider"),
        ])
        var properties = properties(for: type)
        properties["fieldId"] = .string(field)
        var rules: [Rule] = []
        for _ in 0..<random.below(4) {
            rules.append(
                random.pick([
                    Rule(.required), Rule(.email), Rule(.minLength(2)), Rule(.date(min: nil, max: nil)),
                    Rule(.equalsField("f1")), Rule(.integer),
                    Rule(.unknown(name: "luhn", raw: JSONObject([("rule", "luhn")]))),
                ]))
        }
        var result = Node(type: type, id: freshId(), properties: properties)
        if type.isKnown { result.validation = rules }
        if depth < 3, random.chance(60) { result.fallback = input(field: field, depth: depth + 1) }
        return result
    }

    private mutating func leaf(depth: Int) -> Node {
        let type = random.pick([ComponentType.text, .image, .button, .button, .spacer, .divider, .unknown("map")])
        var result = Node(type: type, id: freshId(), properties: properties(for: type))
        if type == .button { result.action = action(depth: 0) }
        if depth < 2, random.chance(30) { result.fallback = leaf(depth: depth + 1) }
        return result
    }

    private mutating func action(depth: Int) -> Action {
        let kind = random.pick([
            Action.Kind.submit, .submit, .openURL("https://example.com"), .subscribe(channel: "news"),
            .network(RequestSpec(method: "POST", path: "orders")), .unknown(type: "share", raw: JSONObject()),
        ])
        return Action(kind, fallback: depth < 2 && random.chance(40) ? action(depth: depth + 1) : nil)
    }

    /// Some of the type's registry properties, plus sometimes `size`, `markdown` or an unknown one.
    private mutating func properties(for type: ComponentType) -> JSONObject {
        var object = JSONObject()
        for entry in CapabilityRegistry.entries {
            guard case .property(let name, let owner) = entry.capability, owner == type,
                !["fieldId", "action", "validation"].contains(name), random.chance(60)
            else { continue }
            object[name] = name == "markdown" ? .bool(true) : .string("v")
        }
        if random.chance(20) { object["size"] = "fill" }
        if random.chance(10) { object["testTag"] = "qa" }
        return object
    }

    /// A copy with fresh ids (fallback subtrees repeat their node's content).
    private mutating func reidentified(_ node: Node) -> Node {
        var copy = node
        copy.id = freshId()
        copy.children = []
        for child in node.children { copy.children.append(reidentified(child)) }
        if let fallback = node.fallback { copy.fallback = reidentified(fallback) }
        return copy
    }
}
