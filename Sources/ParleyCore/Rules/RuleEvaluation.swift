/// What checking one rule against one answer produced.
enum RuleEvaluation: Equatable {
    case pass
    /// Failed: the error's rule name and the default message when the rule has none.
    case fail(rule: String, defaultMessage: String)
    /// Not checkable by this core (unknown kind, or ill-formed parameters in client mode).
    case deferred

    /// Checks `rule` for `value` (the answer of the field the rule belongs to).
    ///
    /// docs/rules.md: every rule except `required`/`requiredIf`
    /// passes on an empty value; lengths count Unicode scalars; equality is
    /// scalar by scalar; numbers compare as exact decimals.
    static func check(
        _ rule: Rule, field: inout FieldValue, answers: Answers, mode: RuleInterpreter.Mode
    ) -> RuleEvaluation {
        let value = field.text
        let check = rule.check
        // The default message is only built when the rule fails (it formats numbers).
        var failure: RuleEvaluation {
            rule.message != nil
                ? .fail(rule: rule.name, defaultMessage: "")
                : .fail(rule: rule.name, defaultMessage: RuleMessages.message(for: check))
        }
        let empty = field.isEmpty
        switch check {
        case .required:
            return empty ? failure : .pass
        case .requiredIf(let predicate):
            return empty && predicate.evaluate(answers) ? failure : .pass
        case .unknown:
            return mode == .client ? .deferred : failure
        default:
            break
        }
        guard let value, !empty else { return .pass }
        switch check {
        case .minLength(let count):
            return hasAtLeast(count, value) ? .pass : failure
        case .maxLength(let count):
            return hasAtMost(count, value) ? .pass : failure
        case .pattern(let pattern):
            guard let regexp = IRegexpCache.regexp(for: pattern) else {
                return illFormed(rule, mode: mode)
            }
            return regexp.matches(value) ? .pass : failure
        case .oneOf(let values):
            return values.contains { $0.isScalarEqual(to: value) } ? .pass : failure
        case .equalsField(let field):
            return (answers[field] ?? "").isScalarEqual(to: value) ? .pass : failure
        case .minimum(let bound), .maximum(let bound), .exclusiveMinimum(let bound),
            .exclusiveMaximum(let bound), .multipleOf(let bound):
            guard let number = field.number() else { return notANumber }
            let order = JSONNumber.compare(number, bound)
            let holds: Bool
            switch check {
            case .minimum: holds = order >= 0
            case .maximum: holds = order <= 0
            case .exclusiveMinimum: holds = order > 0
            case .exclusiveMaximum: holds = order < 0
            default: holds = number.isMultiple(of: bound)
            }
            return holds ? .pass : failure
        case .integer:
            guard let number = field.number() else { return notANumber }
            return number.isInteger ? .pass : failure
        case .email:
            return MailboxSyntax.isValid(value) ? .pass : failure
        case .date(let minimum, let maximum):
            if rule.parameterProblem != nil { return illFormed(rule, mode: mode) }
            guard let ordinal = FullDateSyntax.ordinal(value) else { return failure }
            if let minimum, let bound = FullDateSyntax.ordinal(minimum), ordinal < bound {
                return .fail(rule: rule.name, defaultMessage: RuleMessages.dateBefore(minimum))
            }
            if let maximum, let bound = FullDateSyntax.ordinal(maximum), ordinal > bound {
                return .fail(rule: rule.name, defaultMessage: RuleMessages.dateAfter(maximum))
            }
            return .pass
        case .required, .requiredIf, .unknown:
            return .pass
        }
    }

    private static let notANumber = RuleEvaluation.fail(rule: "number", defaultMessage: RuleMessages.number)

    /// Client cores leave an unparseable rule to the server; the server fails closed.
    private static func illFormed(_ rule: Rule, mode: RuleInterpreter.Mode) -> RuleEvaluation {
        guard mode == .server else { return .deferred }
        return .fail(rule: rule.name, defaultMessage: RuleMessages.illFormed(rule.parameterProblem ?? "ill-formed"))
    }

    /// `unicodeScalars.count >= limit`; a scalar is 1 to 4 UTF-8 bytes, which often decides it unwalked.
    private static func hasAtLeast(_ limit: Int, _ value: String) -> Bool {
        let bytes = value.utf8.count
        if bytes < limit { return false }
        if bytes / 4 >= limit { return true }
        return !hasAtMost(limit - 1, value)
    }

    /// `unicodeScalars.count <= limit` without walking past the limit.
    private static func hasAtMost(_ limit: Int, _ value: String) -> Bool {
        if value.utf8.count <= limit { return true }
        var count = 0
        for _ in value.unicodeScalars {
            count += 1
            if count > limit { return false }
        }
        return true
    }
}
