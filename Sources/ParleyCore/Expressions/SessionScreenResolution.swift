/// What a session snapshot serves of a step (DESIGN.md "Expressions"): everything that depends
/// only on the answers of earlier steps is decided on the server, so a core of any version
/// receives plain data. A node whose `visibleWhen` reads only earlier steps (and computed values of
/// them) is dropped when it does not hold and served without `visibleWhen` when it does; a
/// template that reads only earlier steps becomes its text. What reads a field of this screen
/// (directly or through a computed value) stays for the core to evaluate as the user types, and
/// gating decides how a core without those capabilities is served.
public struct SessionScreenResolution: Sendable {
    /// The flow's computed values and, for each, every field id it reads through others.
    private let computedFields: [ScalarKey: Set<ScalarKey>]
    private let computed: [ComputedValue]

    /// A resolution for steps of a flow with these computed values.
    public init(computed: [ComputedValue]) {
        self.computed = computed
        var direct: [ScalarKey: [ValueReference]] = [:]
        for value in computed where direct[ScalarKey(value.name)] == nil {
            direct[ScalarKey(value.name)] = value.expression.references
        }
        // Transitive field reads, by a worklist per value: cycles and unknown names end the walk.
        var closure: [ScalarKey: Set<ScalarKey>] = [:]
        for name in direct.keys {
            var fields = Set<ScalarKey>()
            var seen: Set<ScalarKey> = [name]
            var pending = [name]
            while let current = pending.popLast() {
                for reference in direct[current] ?? [] {
                    if let field = reference.fieldId {
                        fields.insert(ScalarKey(field))
                    } else if let other = reference.computedName, seen.insert(ScalarKey(other)).inserted {
                        pending.append(ScalarKey(other))
                    }
                }
            }
            closure[name] = fields
        }
        computedFields = closure
    }

    /// A resolution for the steps of `flow`.
    public init(flow: Flow) { self.init(computed: flow.computed) }

    /// Whether `screen` holds anything a session resolves: a `visibleWhen` or a template, in any
    /// node or fallback. A screen without either is served exactly as gated, from shared caches.
    public static func needsResolution(_ screen: Screen) -> Bool {
        var pending = [screen.root]
        while let node = pending.popLast() {
            if node.visibleWhen != nil || !node.templates.isEmpty { return true }
            if let fallback = node.fallback { pending.append(fallback) }
            pending.append(contentsOf: node.children)
        }
        return false
    }

    /// `screen` with what depends only on `context` (the answers of the path's earlier steps,
    /// hidden fields already cleared) resolved.
    public func resolve(_ screen: Screen, context: Answers) -> Screen {
        let onScreen = screen.fieldKeys
        var evaluator = ExpressionEvaluator(computed: computed, answers: context)
        func resolvable(_ references: [ValueReference]) -> Bool {
            references.allSatisfy { reference in
                if let field = reference.fieldId { return !onScreen.contains(ScalarKey(field)) }
                guard let name = reference.computedName else { return false }
                return computedFields[ScalarKey(name)]?.isDisjoint(with: onScreen) ?? true
            }
        }
        var resolved = screen
        resolved.root = resolveTree(screen.root, evaluator: &evaluator, resolvable: resolvable) ?? emptied(screen.root)
        return resolved
    }

    /// The node resolved, `nil` when it is hidden by what the path answered. Depth first with an
    /// explicit stack of frames, so no screen depth can exhaust the call stack.
    private func resolveTree(
        _ root: Node, evaluator: inout ExpressionEvaluator, resolvable: ([ValueReference]) -> Bool
    ) -> Node? {
        /// A node whose children are being resolved, and the children kept so far.
        struct Frame {
            var node: Node
            var next: Int
            var kept: [Node]
        }
        func opened(_ node: Node, _ evaluator: inout ExpressionEvaluator) -> Frame? {
            var node = node
            if let condition = node.visibleWhen, resolvable(condition.references) {
                guard evaluator.holds(condition) else { return nil }
                node.visibleWhen = nil
            }
            resolveTexts(&node, evaluator: &evaluator, resolvable: resolvable)
            if let fallback = node.fallback {
                // A fallback stands in for its node: its own texts resolve the same way.
                var replacement = fallback
                resolveTexts(&replacement, evaluator: &evaluator, resolvable: resolvable)
                node.fallback = replacement
            }
            return Frame(node: node, next: 0, kept: [])
        }
        guard let first = opened(root, &evaluator) else { return nil }
        var stack = [first]
        while var top = stack.popLast() {
            let children = top.node.children
            if top.next < children.count {
                let child = children[top.next]
                top.next += 1
                stack.append(top)
                if let frame = opened(child, &evaluator) { stack.append(frame) }
                continue
            }
            if !children.isEmpty { top.node.children = top.kept }
            guard !stack.isEmpty else { return top.node }
            stack[stack.count - 1].kept.append(top.node)
        }
        return nil
    }

    /// Replaces every template of `node` that reads only the path with its text.
    private func resolveTexts(
        _ node: inout Node, evaluator: inout ExpressionEvaluator, resolvable: ([ValueReference]) -> Bool
    ) {
        for (property, template) in node.templates where resolvable(template.references) {
            node.properties[property] = .string(evaluator.text(of: template))
        }
    }

    /// The root of a screen whose root itself is hidden: kept (a screen has one root), emptied.
    private func emptied(_ root: Node) -> Node {
        var node = root
        node.visibleWhen = nil
        node.children = []
        return node
    }
}
