/// Which nodes of a screen are hidden by `visibleWhen` (docs/expressions.md), decided in
/// document order (depth first, a node before its children) over the answers being submitted
/// plus those of the path. A hidden node hides its subtree; the fields of a hidden subtree are
/// cleared as the walk goes, so a node later in the document that reads a cleared field (or a
/// computed value of it) sees it empty: "a field hidden by a cleared field is hidden too". A
/// node reads only what was decided before it, so the walk always terminates.
///
/// A fallback stands in for its node: the node's `visibleWhen` decides for both, and a
/// fallback's fields are cleared with its node.
public struct ScreenVisibility: Sendable, Equatable {
    /// Ids of the hidden nodes, in document order (a hidden node's descendants included).
    public let hiddenNodeIds: [String]
    /// Field ids of the inputs in hidden subtrees (fallbacks' included), in document order, once each.
    public let hiddenFields: [String]
    private let hiddenFieldKeys: Set<ScalarKey>
    private let hiddenNodeKeys: Set<ScalarKey>

    init(hiddenNodeIds: [String], hiddenFields: [String]) {
        self.hiddenNodeIds = hiddenNodeIds
        self.hiddenFields = hiddenFields
        hiddenFieldKeys = Set(hiddenFields.map(ScalarKey.init))
        hiddenNodeKeys = Set(hiddenNodeIds.map(ScalarKey.init))
    }

    /// Nothing hidden.
    public static let allVisible = ScreenVisibility(hiddenNodeIds: [], hiddenFields: [])

    /// Whether the node with this id is hidden.
    public func isHidden(nodeId: String) -> Bool { hiddenNodeKeys.contains(ScalarKey(nodeId)) }

    /// Whether the input with this field id is hidden.
    public func isHidden(field: String) -> Bool { hiddenFieldKeys.contains(ScalarKey(field)) }

    /// Decides the visibility of `screen`, clearing every hidden field from `evaluator` as it goes.
    public static func resolve(_ screen: Screen, evaluator: inout ExpressionEvaluator) -> ScreenVisibility {
        guard screen.hasVisibilityConditions else { return ScreenVisibility(hiddenNodeIds: [], hiddenFields: []) }
        var nodes: [String] = []
        var fields: [String] = []
        var seenFields = Set<ScalarKey>()
        // Explicit stack (document order): no input depth can exhaust the call stack.
        var pending: [Node] = [screen.root]
        while let node = pending.popLast() {
            if let condition = node.visibleWhen, !evaluator.holds(condition) {
                let firstNewField = fields.count
                var hidden: [Node] = [node]
                while let current = hidden.popLast() {
                    nodes.append(current.id)
                    if let fallback = current.fallback { collectFields(fallback, into: &fields, seen: &seenFields) }
                    if let field = current.fieldId, seenFields.insert(ScalarKey(field)).inserted {
                        fields.append(field)
                    }
                    hidden.append(contentsOf: current.children.reversed())
                }
                for field in fields[firstNewField...] { evaluator.clear(field) }
                continue
            }
            pending.append(contentsOf: node.children.reversed())
        }
        return ScreenVisibility(hiddenNodeIds: nodes, hiddenFields: fields)
    }

    /// Whether a node ``resolve(_:evaluator:)`` visits (the root and its children, not fallbacks)
    /// has a `visibleWhen`.
    static func hasConditions(_ root: Node) -> Bool {
        var pending = [root]
        while let node = pending.popLast() {
            if node.visibleWhen != nil { return true }
            pending.append(contentsOf: node.children)
        }
        return false
    }

    private static func collectFields(_ node: Node, into fields: inout [String], seen: inout Set<ScalarKey>) {
        var pending = [node]
        while let current = pending.popLast() {
            if let field = current.fieldId, seen.insert(ScalarKey(field)).inserted { fields.append(field) }
            if let fallback = current.fallback { pending.append(fallback) }
            pending.append(contentsOf: current.children.reversed())
        }
    }
}
