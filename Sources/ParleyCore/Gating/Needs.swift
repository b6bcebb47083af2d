/// What a subtree (the node and its children, not fallbacks) carries that the
/// flow needs: an answer to collect, or a `submit` action (the way forward).
struct Needs {
    private(set) var input = false
    private(set) var forward = false

    init(_ node: Node) {
        input = node.type.isInput || node.fieldId != nil
        forward = Self.isForward(node)
        for child in node.children where !(input && forward) {
            let needs = Needs(child)
            input = input || needs.input
            forward = forward || needs.forward
        }
    }

    /// Whether the node's action, or any action in its fallback chain, is a
    /// `submit`. Nodes of unknown type keep `action` raw in their properties.
    private static func isForward(_ node: Node) -> Bool {
        var candidate = node.action
        while let action = candidate {
            if case .submit = action.kind { return true }
            candidate = action.fallback
        }
        var raw = node.properties["action"]
        while let object = raw?.objectValue {
            if object["type"]?.stringValue?.isScalarEqual(to: "submit") == true { return true }
            raw = object["fallback"]
        }
        return false
    }
}
