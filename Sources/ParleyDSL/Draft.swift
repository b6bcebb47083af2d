import ParleyCore

/// A node under construction: like ``ParleyCore/Node`` but its id may still be
/// unknown. Ids are assigned when the screen is assembled, because only then
/// is a node's position known (see ``resolve(id:)``).
struct Draft: Sendable {
    var type: ComponentType
    var explicitId: String?
    var properties: JSONObject
    var validation: [Rule] = []
    var action: Action?
    var children: [Draft] = []
    /// At most one element; an array because a struct cannot contain itself.
    var fallbacks: [Draft] = []
    /// When the node is shown (`nil`: always).
    var visibleWhen: Predicate?

    init(type: ComponentType, properties: JSONObject = JSONObject(), children: [Draft] = [], action: Action? = nil) {
        self.type = type
        self.properties = properties
        self.children = children
        self.action = action
    }

    var fieldId: String? { properties["fieldId"]?.stringValue }

    /// The node with every id assigned.
    ///
    /// Id scheme (deterministic, local to one screen): an explicit `.id` wins;
    /// else an input takes its `fieldId` (unique per flow); else a child is
    /// `<parent id>-<type><n>` where `n` counts siblings of the same type, so
    /// adding a `text` never renumbers the `button`s; a fallback is
    /// `<owner id>-fallback` (it shares its owner's `fieldId`).
    func resolve(id: String) -> Node {
        var counts: [String: Int] = [:]
        let resolvedChildren = children.map { child -> Node in
            let name = child.type.name
            counts[name, default: 0] += 1
            let derived = child.explicitId ?? child.fieldId ?? "\(id)-\(name)\(counts[name]!)"
            return child.resolve(id: derived)
        }
        let resolvedFallback = fallbacks.first.map { $0.resolve(id: $0.explicitId ?? "\(id)-fallback") }
        return Node(
            type: type, id: id, properties: properties, validation: validation, action: action,
            children: resolvedChildren, fallback: resolvedFallback, visibleWhen: visibleWhen)
    }
}
