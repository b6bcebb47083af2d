/// Answers and computed values frozen after visibility was decided: what a step's rules and
/// transitions read (DESIGN.md "Expressions"). Immutable, so it can be passed around freely.
public struct ExpressionEnvironment: Sendable, Equatable {
    /// The answers fields read (path and screen, hidden fields cleared).
    public let answers: Answers
    /// Every computed value of the flow, by name.
    private let computed: [ScalarKey: ExpressionValue]

    /// An environment; `computed` maps names to values.
    init(answers: Answers, computed: [ScalarKey: ExpressionValue]) {
        self.answers = answers
        self.computed = computed
    }

    /// Answers alone (no computed values: they read as empty).
    public init(answers: Answers) {
        self.init(answers: answers, computed: [:])
    }

    /// A computed value; empty when the flow declares no such name.
    public func computed(_ name: String) -> ExpressionValue { computed[ScalarKey(name)] ?? .empty }

    /// What a predicate subject reads.
    public func read(_ reference: ValueReference) -> String? {
        switch reference {
        case .field(let name): return answers[name]
        case .computed(let name): return computed(name).text
        }
    }

    /// Whether a predicate holds.
    public func holds(_ predicate: Predicate) -> Bool {
        predicate.holds { read($0) }
    }
}
