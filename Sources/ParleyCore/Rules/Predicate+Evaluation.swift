extension Predicate {
    /// Whether the predicate holds for `answers` (docs/wire-format.md "Flow": pure data, no clock).
    ///
    /// `equals`/`in` compare scalar by scalar and are false for an absent
    /// field; `present: true` holds when the answer is non-empty (absent, `null`
    /// and whitespace-only answers are empty); `all` of nothing holds, `any` of nothing does not.
    public func evaluate(_ answers: Answers) -> Bool {
        switch self {
        case .equals(let field, let value):
            guard let answer = answers[field] else { return false }
            return answer.isScalarEqual(to: value)
        case .isIn(let field, let values):
            guard let answer = answers[field] else { return false }
            return values.contains { $0.isScalarEqual(to: answer) }
        case .present(let field, let expected):
            return !answers.isEmpty(field) == expected
        case .all(let parts):
            return parts.allSatisfy { $0.evaluate(answers) }
        case .any(let parts):
            return parts.contains { $0.evaluate(answers) }
        case .not(let part):
            return !part.evaluate(answers)
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
    public func nextStepId(for answers: Answers, context: Answers) -> String? {
        nextStepId(for: Answers.onPath(answers, context: context, screen: screen))
    }
}
