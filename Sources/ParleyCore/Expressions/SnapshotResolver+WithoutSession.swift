extension SnapshotResolver {
    /// A step's screen as served without a session (`GET /v1/screens/…`, the studio's preview) to a
    /// core that lacks `visibleWhen` or `template` (docs/expressions.md "Templates", "Gating"): no
    /// answers are known, so what reads only earlier steps is decided as if they were empty — a
    /// hidden node is listed in `hidden` (the gate leaves it out; it stays in the screen so that
    /// report pointers still point into the flow), a shown one loses its `visibleWhen`, and a
    /// template without `fallback` becomes its text parts alone (its expressions empty). What
    /// reads the current screen, and templates with a fallback, are left to the gate (fallback
    /// text, node fallback or upgrade screen). A core with both capabilities gets the screen
    /// unchanged.
    static func withoutSession(flow: Flow, step: Step, capabilities: CapabilitySet) -> (
        screen: Screen, hidden: Set<ScalarKey>
    ) {
        let visibility = !capabilities.evaluatesVisibility
        let templates = !capabilities.resolvesTemplates
        guard visibility || templates, needsResolution(step.screen) else { return (step.screen, []) }
        let dependencies = ScreenDependencies(flow: flow, screen: step.screen)
        var evaluator = ExpressionEvaluator(flow: flow, answers: Answers())
        var hidden: Set<ScalarKey> = []
        let screen = rewrite(step.screen) { node in
            if visibility, let condition = node.visibleWhen, !dependencies.readsScreen(condition) {
                node.visibleWhen = nil
                guard evaluator.holds(condition) else {
                    hidden.insert(ScalarKey(node.id))
                    return false
                }
            }
            if templates {
                for (name, template) in node.templates
                where template.fallback == nil && !dependencies.readsScreen(template) {
                    node.properties[name] = .string(template.textParts)
                }
            }
            return true
        }
        return (screen, hidden)
    }

    /// The screen a session serves in the worst case, for the servability lint: what reads only
    /// earlier steps is resolved for every core (a node shown without its `visibleWhen`, a
    /// template as plain text), so only what reads the current screen still needs core 2.1.
    static func servabilityView(flow: Flow, step: Step) -> Screen {
        guard needsResolution(step.screen) else { return step.screen }
        let dependencies = ScreenDependencies(flow: flow, screen: step.screen)
        return rewrite(step.screen) { node in
            if let condition = node.visibleWhen, !dependencies.readsScreen(condition) { node.visibleWhen = nil }
            for (name, template) in node.templates where !dependencies.readsScreen(template) {
                node.properties[name] = .string(template.textParts)
            }
            return true
        }
    }

    /// `screen` with `change` applied to every node and fallback, parents first; the subtree of a
    /// node for which it returns false is left as it is (its caller hides the node).
    private static func rewrite(_ screen: Screen, _ change: (inout Node) -> Bool) -> Screen {
        func visit(_ node: Node) -> Node {
            var node = node
            guard change(&node) else { return node }
            if !node.children.isEmpty { node.children = node.children.map(visit) }
            if let fallback = node.fallback { node.fallback = visit(fallback) }
            return node
        }
        var result = screen
        result.root = visit(screen.root)
        return result
    }
}

extension Template {
    /// The text with every expression empty: the string parts concatenated.
    var textParts: String {
        var text = ""
        for part in parts { if case .text(let piece) = part { text += piece } }
        return text
    }
}
