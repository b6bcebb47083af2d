/// Default English messages, used when a rule carries no `message`.
///
/// Part of the conformance contract (Tests/Conformance/README.md lists them
/// and the vectors pin them): numbers appear in ``JSONNumber``'s canonical text.
public enum RuleMessages {
    /// The default message for a failed check.
    public static func message(for check: Rule.Check) -> String {
        switch check {
        case .required, .requiredIf: return "This field is required."
        case .minLength(let count): return "Must be at least \(count) \(count == 1 ? "character" : "characters")."
        case .maxLength(let count): return "Must be at most \(count) \(count == 1 ? "character" : "characters")."
        case .pattern: return "Must match the expected format."
        case .oneOf: return "Must be one of the allowed values."
        case .equalsField(let field): return "Must match \(field)."
        case .minimum(let bound): return "Must be at least \(bound)."
        case .maximum(let bound): return "Must be at most \(bound)."
        case .exclusiveMinimum(let bound): return "Must be greater than \(bound)."
        case .exclusiveMaximum(let bound): return "Must be less than \(bound)."
        case .multipleOf(let step): return "Must be a multiple of \(step)."
        case .integer: return "Must be a whole number."
        case .email: return "Must be an email address."
        case .date: return "Must be a date written YYYY-MM-DD."
        case .unknown(let name, _): return "The rule \"\(name)\" cannot be checked."
        }
    }

    /// A value under a numeric rule that is not a number (rule `number`).
    public static let number = "Must be a number."
    /// A date before the rule's `min`.
    public static func dateBefore(_ minimum: String) -> String { "Must be on or after \(minimum)." }
    /// A date after the rule's `max`.
    public static func dateAfter(_ maximum: String) -> String { "Must be on or before \(maximum)." }
    /// An answer for a field that is not on the screen (server mode, rule `unexpectedField`).
    public static let unexpectedField = "This field is not on the screen."
    /// A rule whose parameters are ill-formed, enforced in server mode (rule = its kind).
    public static func illFormed(_ problem: String) -> String { "This rule cannot be checked: \(problem)" }
}
