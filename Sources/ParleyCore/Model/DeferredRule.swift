/// A rule left to the server: a client core skips it because it cannot run it
/// (the interpreter does not know the kind, or gating removed it from the
/// served payload); the server still enforces it on submit (docs/rules.md
/// and docs/gating.md).
public struct DeferredRule: Sendable, Hashable {
    /// The input's `fieldId` (its node `id` when it has none).
    public let field: String
    /// The rule kind's wire name.
    public let rule: String

    /// Creates an entry.
    public init(field: String, rule: String) {
        self.field = field
        self.rule = rule
    }

    /// Wire form: `{"field", "rule"}`.
    public var json: JSONValue { ["field": .string(field), "rule": .string(rule)] }

    public static func == (lhs: DeferredRule, rhs: DeferredRule) -> Bool {
        lhs.field.isScalarEqual(to: rhs.field) && lhs.rule.isScalarEqual(to: rhs.rule)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ScalarKey(field))
        hasher.combine(ScalarKey(rule))
    }
}
