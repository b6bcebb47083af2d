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
        // Almost every outcome a server records: built once, not member by member per answer.
        if errors.isEmpty, deferred.isEmpty { return Self.cleanJSON }
        return [
            "valid": .bool(valid), "errors": .array(errors.map { $0.json }),
            "deferred": .array(deferred.map { $0.json }),
        ]
    }

    /// ``json`` of an outcome with no errors and nothing deferred.
    public static let cleanJSON: JSONValue = ["valid": .bool(true), "errors": .array([]), "deferred": .array([])]
}
