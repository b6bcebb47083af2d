/// The rule interpreter (docs/rules.md):
/// pure and total, the same on a server and in a Swift client core.
///
/// Fields are the screen's inputs in document order (depth first, a node
/// before its children). For each, rules run in order and the first failing
/// one is reported. Validate against the *original* screen: a fallback stands
/// in for its node with the same `fieldId`, and the server checks the original
/// node's full rule set.
///
/// Inputs hidden by `visibleWhen` (docs/expressions.md) are not validated and their answers
/// are cleared before any rule reads them; ``StepEvaluation`` does the same with a flow's
/// computed values and says which answers were cleared.
public struct RuleInterpreter: Sendable {
    /// Where the interpreter runs; the two differ only on what they cannot check.
    public enum Mode: Sendable, Equatable {
        /// A client core: unknown rule kinds (and rules whose parameters it
        /// cannot parse) are skipped and listed in `deferred`.
        case client
        /// The server, authoritative: unknown or ill-formed rules fail (fail
        /// closed), and answers for fields not on the screen are `unexpectedField` errors.
        case server
    }

    /// The mode.
    public let mode: Mode

    /// Creates an interpreter.
    public init(mode: Mode) {
        self.mode = mode
    }

    /// Validates `answers` against every visible input of `screen`.
    ///
    /// `context` holds the answers already given on earlier steps of the session's path
    /// (docs/sessions.md): `equalsField`, `requiredIf` and predicates read a field of this
    /// screen from `answers` and any other field from `context` (``Answers/onPath(_:context:screen:)``).
    /// `unexpectedField` concerns `answers` alone: a field of an earlier step submitted again here
    /// is unexpected on the server, and read by no rule in either mode. A screen read alone has no
    /// computed values: they read as empty (use ``StepEvaluation`` for a flow's step).
    public func validate(screen: Screen, answers: Answers, context: Answers = Answers()) -> ValidationOutcome {
        StepEvaluation.evaluate(
            screen: screen, computed: [], answers: answers, context: context, mode: mode, resolvingTexts: false
        ).validation
    }

    /// Validates with the visibility already decided: `submitted` holds the step's answers with
    /// hidden fields removed, `environment` what rules read (path and screen after clearing).
    func validate(
        screen: Screen, submitted: Answers, environment: ExpressionEnvironment, visibility: ScreenVisibility
    ) -> ValidationOutcome {
        var walk = Walk(
            environment: environment, visibility: visibility, skipsHidden: !visibility.hiddenFields.isEmpty, mode: mode)
        walk.visit(screen.root)
        var errors = walk.errors
        let deferred = walk.deferred
        if mode == .server {
            // The screen's fields, fallbacks' included (a fallback's field counts as on the screen,
            // but its rules are not the authority): the list the screen keeps, compared scalar by
            // scalar, as ``Answers/onPath(_:context:screen:)`` does. Hashing every field into a
            // set while visiting cost ~1k instructions an answer.
            let declared = screen.fieldIdList
            for index in 0..<submitted.count where !submitted.fieldId(at: index, isAmong: declared) {
                errors.append(
                    ValidationError(
                        field: submitted.fieldId(at: index), rule: "unexpectedField",
                        message: RuleMessages.unexpectedField))
            }
        }
        return ValidationOutcome(errors: errors, deferred: deferred)
    }

    /// The walk over a screen's nodes that validates each visible input, its findings kept in
    /// its own fields: as nested functions capturing the lists, every append to them was checked
    /// for exclusive access at run time (~500 instructions an answer).
    private struct Walk {
        let environment: ExpressionEnvironment
        let visibility: ScreenVisibility
        let skipsHidden: Bool
        let mode: Mode
        var errors: [ValidationError] = []
        var deferred: [DeferredRule] = []

        init(environment: ExpressionEnvironment, visibility: ScreenVisibility, skipsHidden: Bool, mode: Mode) {
            self.environment = environment
            self.visibility = visibility
            self.skipsHidden = skipsHidden
            self.mode = mode
        }

        /// `node` and its children, depth first, a node before its children.
        mutating func visit(_ node: Node) {
            if let field = node.fieldId, !skipsHidden || !visibility.isHidden(field: field) {
                check(node, field: field)
            }
            for child in node.children { visit(child) }
        }

        /// The node's rules in order, up to the first that fails.
        mutating func check(_ node: Node, field: String) {
            var value = FieldValue(environment.answers[field])
            // A field id used twice (the linter refuses it) still reports one error.
            var failed = errors.contains { $0.field.isScalarEqual(to: field) }
            for rule in node.validation {
                if failed {
                    if !rule.isKnown, mode == .client { deferred.append(DeferredRule(field: field, rule: rule.name)) }
                    continue
                }
                switch RuleEvaluation.check(rule, field: &value, environment: environment, mode: mode) {
                case .pass:
                    break
                case .deferred:
                    deferred.append(DeferredRule(field: field, rule: rule.name))
                case .fail(let name, let defaultMessage):
                    errors.append(ValidationError(field: field, rule: name, message: rule.message ?? defaultMessage))
                    failed = true
                }
            }
        }
    }

    /// Validates in the given mode; shorthand for `RuleInterpreter(mode:).validate(screen:answers:context:)`.
    public static func validate(
        screen: Screen, answers: Answers, context: Answers = Answers(), mode: Mode = .server
    ) -> ValidationOutcome {
        RuleInterpreter(mode: mode).validate(screen: screen, answers: answers, context: context)
    }
}
