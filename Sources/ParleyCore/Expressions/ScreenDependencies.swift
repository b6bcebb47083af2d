/// Whether a predicate, expression or template reads the current screen (DESIGN.md
/// "Expressions"): directly through one of the screen's fields, or through a computed value that
/// reads one, however indirectly. What does not can be resolved from the path's earlier answers
/// alone — the server does so in a session snapshot, for every core.
public struct ScreenDependencies: Sendable {
    private let screenFields: Set<ScalarKey>
    /// Computed values (by name) that read the screen.
    private let screenComputed: Set<ScalarKey>

    /// The dependencies of `screen` in `flow` (fallbacks' fields count as the screen's).
    public init(flow: Flow, screen: Screen) {
        self.init(computed: flow.computed, screen: screen)
    }

    /// The dependencies of `screen` given a flow's computed values.
    public init(computed: [ComputedValue], screen: Screen) {
        let fields = screen.fieldKeys
        screenFields = fields
        // A computed value reads the screen when it reads a screen field or such a computed value:
        // propagate backwards over the dependency graph, iteratively.
        let graph = ComputedGraph(computed)
        var readers = [[Int]](repeating: [], count: computed.count)
        for (index, dependencies) in graph.dependencies.enumerated() {
            for dependency in dependencies { readers[dependency].append(index) }
        }
        var marked = [Bool](repeating: false, count: computed.count)
        var pending: [Int] = []
        for (index, value) in computed.enumerated()
        where value.expression.references.contains(where: { $0.fieldId.map { fields.contains(ScalarKey($0)) } ?? false }
        ) {
            marked[index] = true
            pending.append(index)
        }
        while let current = pending.popLast() {
            for reader in readers[current] where !marked[reader] {
                marked[reader] = true
                pending.append(reader)
            }
        }
        screenComputed = Set(computed.indices.filter { marked[$0] }.map { ScalarKey(computed[$0].name) })
    }

    /// Whether reading `references` touches the screen.
    public func readScreen(_ references: [ValueReference]) -> Bool {
        references.contains { reference in
            switch reference {
            case .field(let name): return screenFields.contains(ScalarKey(name))
            case .computed(let name): return screenComputed.contains(ScalarKey(name))
            }
        }
    }

    /// Whether the predicate reads the screen.
    public func readsScreen(_ predicate: Predicate) -> Bool { readScreen(predicate.references) }
    /// Whether the expression reads the screen.
    public func readsScreen(_ expression: Expression) -> Bool { readScreen(expression.references) }
    /// Whether the template reads the screen.
    public func readsScreen(_ template: Template) -> Bool { readScreen(template.references) }
}
