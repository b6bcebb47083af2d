extension Flow {
    /// The field ids whose answers are sensitive: an input (or one of its fallbacks) in any step
    /// says `"sensitive": true`. What the server encrypts at rest.
    public var sensitiveFields: Set<String> {
        var fields: Set<String> = []
        func visit(_ node: Node) {
            if node.isSensitive, let field = node.fieldId { fields.insert(field) }
            node.children.forEach(visit)
            if let fallback = node.fallback { visit(fallback) }
        }
        for step in steps { visit(step.screen.root) }
        return fields
    }
}
