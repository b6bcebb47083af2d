/// A rule the interpreter could not check and left to the server: its field and kind.
public struct DeferredRule: Sendable, Equatable {
    /// The field id the rule belongs to.
    public let field: String
    /// The rule kind as written.
    public let rule: String

    /// Creates an entry.
    public init(field: String, rule: String) {
        self.field = field
        self.rule = rule
    }

    /// `{"field", "rule"}`.
    public var json: JSONValue { ["field": .string(field), "rule": .string(rule)] }

    public static func == (lhs: DeferredRule, rhs: DeferredRule) -> Bool {
        lhs.field.isScalarEqual(to: rhs.field) && lhs.rule.isScalarEqual(to: rhs.rule)
    }
}
