extension SnapshotResolver {
    /// A step's screen as served without a session (`GET /v1/screens/…`, the studio's preview) to a
    /// core that lacks `visibleWhen` or `template` (docs/expressions.md "Templates", "Gating"). No
    /// answers are known, so what reads only earlier steps cannot be decided: a node whose
    /// `visibleWhen` reads only earlier steps is shown, without its `visibleWhen` (never hide a
    /// field the server may require: the server clears an answer it hides), and a template without
    /// `fallback` that reads only earlier steps becomes its text parts alone (its expressions
    /// empty). What reads the current screen, and templates with a fallback, are left to the gate
    /// (fallback text, node fallback or upgrade screen). A core with both capabilities gets the
    /// screen unchanged.
    static func withoutSession(flow: Flow, step: Step, capabilities: CapabilitySet) -> Screen {
        settlingPathOnly(
            flow: flow, step: step, visibility: !capabilities.evaluatesVisibility,
            templates: capabilities.resolvesTemplates ? .none : .withoutFallback)
    }

    /// The screen a session serves in the worst case, for the servability lint: what reads only
    /// earlier steps is resolved for every core (a node shown without its `visibleWhen`, a
    /// template as plain text), so only what reads the current screen still needs core 2.1.
    static func servabilityView(flow: Flow, step: Step) -> Screen {
        settlingPathOnly(flow: flow, step: step, visibility: true, templates: .all)
    }

    /// Which templates reading only earlier steps become their text parts.
    private enum TemplatesToSettle { case none, withoutFallback, all }

    /// The step's screen with what reads only earlier steps settled without their answers:
    /// `visibleWhen` removed (when `visibility`), templates as their text parts.
    private static func settlingPathOnly(
        flow: Flow, step: Step, visibility: Bool, templates: TemplatesToSettle
    ) -> Screen {
        guard visibility || templates != .none, needsResolution(step.screen) else { return step.screen }
        let dependencies = ScreenDependencies(flow: flow, screen: step.screen)
        return rewrite(step.screen) { node in
            if visibility, let condition = node.visibleWhen, !dependencies.readsScreen(condition) {
                node.visibleWhen = nil
            }
            guard templates != .none else { return }
            for (name, template) in node.templates
            where (templates == .all || template.fallback == nil) && !dependencies.readsScreen(template) {
                node.properties[name] = .string(template.textParts)
            }
        }
    }

    /// `screen` with `change` applied to every node and fallback, parents first.
    private static func rewrite(_ screen: Screen, _ change: (inout Node) -> Void) -> Screen {
        func visit(_ node: Node) -> Node {
            var node = node
            change(&node)
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
