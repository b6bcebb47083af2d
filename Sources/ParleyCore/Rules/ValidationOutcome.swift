/// The result of validating answers against a screen (docs/rules.md).
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
