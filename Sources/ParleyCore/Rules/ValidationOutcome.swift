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

/// The result of validating answers against a screen (DESIGN.md "Rule interpreter").
public struct ValidationOutcome: Sendable, Equatable {
    /// The first failing rule per field, fields in document order, then unexpected fields in scalar order.
    public let errors: [ValidationError]
    /// Rules not checked (client mode: unknown kinds), in document order.
    public let deferred: [DeferredRule]

    /// Creates an outcome.
    public init(errors: [ValidationError], deferred: [DeferredRule] = []) {
        self.errors = errors
        self.deferred = deferred
    }

    /// Whether no rule failed. Deferred rules do not make an outcome invalid.
    public var valid: Bool { errors.isEmpty }

    /// The wire shape: `{"valid": Bool, "errors": [{"field","rule","message"}], "deferred": [{"field","rule"}]}`.
    public var json: JSONValue {
        [
            "valid": .bool(valid), "errors": .array(errors.map(\.json)),
            "deferred": .array(deferred.map(\.json)),
        ]
    }
}
