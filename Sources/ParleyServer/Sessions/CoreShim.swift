import ParleyCore

// TEMPORARY until core-sessions lands: the API the server expects from ParleyCore.
extension RuleInterpreter {
    func validate(screen: Screen, answers: Answers, context: Answers) -> ValidationOutcome {
        var merged = context
        for field in answers.fieldIds { merged[field] = answers[field] }
        let outcome = validate(screen: screen, answers: merged)
        let errors = outcome.errors.filter { $0.rule != "unexpectedField" || answers[$0.field] != nil }
        return ValidationOutcome(errors: errors, deferred: outcome.deferred)
    }
}

struct PathReplay {
    enum Outcome { case completed(Answers), refused(String) }
    let flow: Flow
    func replay(_ walk: [(step: String, answers: Answers)]) -> Outcome {
        guard let first = walk.first, first.step == flow.start else { return .refused("not from start") }
        var context = Answers()
        for (index, entry) in walk.enumerated() {
            guard let step = flow.step(entry.step) else { return .refused("unknown step") }
            let outcome = RuleInterpreter(mode: .server).validate(
                screen: step.screen, answers: entry.answers, context: context)
            guard outcome.valid else { return .refused("step \(entry.step) invalid") }
            for field in entry.answers.fieldIds { context[field] = entry.answers[field] }
            if index + 1 < walk.count {
                guard step.nextStepId(for: context) == walk[index + 1].step else { return .refused("transition") }
            } else if !step.next.isEmpty {
                return .refused("not terminal")
            }
        }
        return .completed(context)
    }
}
