/// A rule the served payload does not carry because the core cannot run it:
/// the client skips it, the server still enforces it on submit (DESIGN.md
/// "Capabilities and version gating").
public struct DeferredRule: Sendable, Hashable {
    /// The input's `fieldId` (its node `id` when it has none).
    public let field: String
    /// The rule kind's wire name.
    public let rule: String

    /// Creates a deferred-rule entry.
    public init(field: String, rule: String) {
        self.field = field
        self.rule = rule
    }

    /// Wire form: `{"field", "rule"}`.
    public var json: JSONValue {
        ["field": .string(field), "rule": .string(rule)]
    }
}
