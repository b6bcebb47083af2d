/// One failed rule: which field, which rule, and the message to show.
public struct ValidationError: Sendable, Equatable {
    /// The field id.
    public let field: String
    /// The rule kind that failed (`required`, `pattern`…), `number` for a
    /// non-numeric value under a numeric rule, or `unexpectedField`.
    public let rule: String
    /// The rule's `message`, or the default English message (see ``RuleMessages``).
    public let message: String

    /// Creates an error.
    public init(field: String, rule: String, message: String) {
        self.field = field
        self.rule = rule
        self.message = message
    }

    /// `{"field", "rule", "message"}`.
    public var json: JSONValue {
        ["field": .string(field), "rule": .string(rule), "message": .string(message)]
    }

    public static func == (lhs: ValidationError, rhs: ValidationError) -> Bool {
        lhs.field.isScalarEqual(to: rhs.field) && lhs.rule.isScalarEqual(to: rhs.rule)
            && lhs.message.isScalarEqual(to: rhs.message)
    }
}
