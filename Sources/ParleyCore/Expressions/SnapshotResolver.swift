/// Resolves, for a session snapshot, everything on a step's screen that depends only on earlier
/// steps (DESIGN.md "Expressions"): a node whose `visibleWhen` reads only the path is dropped when
/// hidden and served without its `visibleWhen` when shown; a template that reads only the path
/// becomes a plain string. What reads the current screen stays for a core with the capabilities
/// (`liveExpressions`); for an older core a template is replaced by its `fallback`, and what cannot
/// be replaced is listed in ``Result/needsCapability`` (gating rule 4 decides: fallback node or
/// upgrade screen).
///
/// Give it the flow in the session's locale (``Flow/localized(to:)``): template parts are then
/// that locale's strings.
public enum SnapshotResolver {
    /// A resolved screen.
    public struct Result: Sendable, Equatable {
        /// The screen to gate and serve.
        public let screen: Screen
        /// Ids of nodes that still need core 2.1's `template` or `visibleWhen` (only when
        /// `liveExpressions` is false): a template without fallback, or a `visibleWhen` that reads
        /// the current screen.
        public let needsCapability: [String]
    }

    /// Resolves `step` of `flow` for a session whose earlier steps answered `context`.
    public static func resolve(flow: Flow, step: Step, context: Answers, liveExpressions: Bool = true) -> Result {
        let dependencies = ScreenDependencies(flow: flow, screen: step.screen)
        var evaluator = ExpressionEvaluator(
            flow: flow, answers: Answers.onPath(Answers(), context: context, screen: step.screen))
        var needs: [String] = []
        func resolve(_ node: Node) -> Node? {
            var node = node
            if let condition = node.visibleWhen {
                if !dependencies.readsScreen(condition) {
                    guard evaluator.holds(condition) else { return nil }
                    node.visibleWhen = nil
                } else if !liveExpressions {
                    needs.append(node.id)
                }
            }
            for name in Template.textProperties {
                guard let value = node.properties[name], Template.isTemplate(value),
                    let template = try? Template(json: value, at: .root)
                else { continue }
                if !dependencies.readsScreen(template) {
                    node.properties[name] = .string(evaluator.text(of: template))
                } else if !liveExpressions {
                    if let fallback = template.fallback {
                        node.properties[name] = .string(fallback)
                    } else {
                        needs.append(node.id)
                    }
                }
            }
            if !node.children.isEmpty { node.children = node.children.compactMap(resolve) }
            if let fallback = node.fallback { node.fallback = resolve(fallback) }
            return node
        }
        let root = resolve(step.screen.root) ?? Node(type: .vstack, id: step.screen.root.id)
        var screen = step.screen
        screen.root = root
        return Result(screen: screen, needsCapability: needs)
    }
}
