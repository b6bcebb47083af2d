extension SnapshotResolver {
    /// Whether `screen` holds anything a session resolves: a `visibleWhen` or a template, in any
    /// node or fallback. A screen without either is served exactly as gated, from shared caches,
    /// so servers check this once per flow version and skip the resolver for every other step.
    public static func needsResolution(_ screen: Screen) -> Bool {
        var pending = [screen.root]
        while let node = pending.popLast() {
            if node.visibleWhen != nil || !node.templates.isEmpty { return true }
            if let fallback = node.fallback { pending.append(fallback) }
            pending.append(contentsOf: node.children)
        }
        return false
    }
}
