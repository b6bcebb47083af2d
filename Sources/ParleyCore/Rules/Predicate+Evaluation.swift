extension Predicate {
    /// Whether the predicate holds for `answers` (docs/wire-format.md "Flow": pure data, no clock).
    ///
    /// `equals`/`in` compare scalar by scalar and are false for an absent value; `present: true`
    /// holds when the answer is non-empty (absent, `null` and whitespace-only answers are empty);
    /// `all` of nothing holds, `any` of nothing does not. A computed value reads as empty here:
    /// use ``ExpressionEvaluator/holds(_:)`` to evaluate a flow's computed values.
    public func evaluate(_ answers: Answers) -> Bool {
        holds { reference in reference.fieldId.flatMap { answers[$0] } }
    }

    /// Whether the predicate holds when each reference reads `value(reference)` (`nil`: absent).
    ///
    /// The one definition of every predicate form, shared by the rule interpreter, transitions,
    /// visibility and `if` expressions (docs/expressions.md).
    func holds(reading value: (ValueReference) -> String?) -> Bool {
        switch self {
        case .equals(let subject, let expected):
            guard let answer = value(subject) else { return false }
            return answer.isScalarEqual(to: expected)
        case .isIn(let subject, let values):
            guard let answer = value(subject) else { return false }
            return values.contains { $0.isScalarEqual(to: answer) }
        case .present(let subject, let expected):
            return !Answers.isEmpty(value(subject)) == expected
        case .empty(let subject, let expected):
            return Answers.isEmpty(value(subject)) == expected
        case .compare(let subject, let comparison, let bound):
            let answer = value(subject)
            guard !Answers.isEmpty(answer), let answer, let number = JSONNumber(parsing: answer),
                let limit = JSONNumber(parsing: bound)
            else { return false }
            return comparison.holds(JSONNumber.compare(number, limit))
        case .matches(let subject, let pattern):
            let answer = value(subject)
            guard !Answers.isEmpty(answer), let answer, let regexp = IRegexpCache.regexp(for: pattern) else {
                return false
            }
            return regexp.matches(answer)
        case .all(let parts):
            return parts.allSatisfy { $0.holds(reading: value) }
        case .any(let parts):
            return parts.contains { $0.holds(reading: value) }
        case .not(let part):
            return !part.holds(reading: value)
        }
    }
}

extension Step {
    /// The id of the step to go to after this one validates: the first
    /// transition whose `when` holds (or has none); `nil` ends the flow.
    public func nextStepId(for answers: Answers) -> String? {
        next.first { $0.when?.evaluate(answers) ?? true }?.goto
    }

    /// The step to go to after `answers` validated on this step of a path whose earlier steps
    /// answered `context`: predicates read exactly what the step's rules read
    /// (``Answers/onPath(_:context:screen:)``); `nil` when no transition matches or `next` is empty.
    /// Inputs hidden by `visibleWhen` read as empty, as for the rules; a flow's computed values
    /// need ``StepEvaluation/evaluate(flow:step:answers:context:mode:resolvingTexts:)``.
    public func nextStepId(for answers: Answers, context: Answers) -> String? {
        let evaluation = StepEvaluation.evaluate(
            screen: screen, computed: [], answers: answers, context: context, transitions: next,
            resolvingTexts: false)
        return next.first { $0.when.map(evaluation.environment.holds) ?? true }?.goto
    }
}
