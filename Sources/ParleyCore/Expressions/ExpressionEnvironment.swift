/// Answers and computed values frozen after visibility was decided: what a step's rules and
/// transitions read (DESIGN.md "Expressions"). Immutable, so it can be passed around freely.
public struct ExpressionEnvironment: Sendable, Equatable {
    /// The answers fields read (path and screen, hidden fields cleared).
    public let answers: Answers
    /// Every computed value of the flow, by name.
    private let computed: [ScalarKey: ExpressionValue]
    /// Every computed value of the flow, in the flow's order (the scalar order of the names).
    public let computedValues: [(name: String, value: ExpressionValue)]

    /// An environment over answers and computed values (in the flow's order).
    init(answers: Answers, computedValues: [(name: String, value: ExpressionValue)]) {
        self.answers = answers
        self.computedValues = computedValues
        var table: [ScalarKey: ExpressionValue] = [:]
        for (name, value) in computedValues where table[ScalarKey(name)] == nil { table[ScalarKey(name)] = value }
        computed = table
    }

    /// Answers alone (no computed values: they read as empty).
    public init(answers: Answers) {
        self.init(answers: answers, computedValues: [])
    }

    public static func == (lhs: ExpressionEnvironment, rhs: ExpressionEnvironment) -> Bool {
        lhs.answers == rhs.answers && lhs.computedValues.count == rhs.computedValues.count
            && zip(lhs.computedValues, rhs.computedValues).allSatisfy {
                $0.name.isScalarEqual(to: $1.name) && $0.value == $1.value
            }
    }

    /// The computed values as a JSON object: `{name: value or null}`.
    public var computedJSON: JSONValue {
        var object = JSONObject()
        for (name, value) in computedValues { object[name] = value.json }
        return .object(object)
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
