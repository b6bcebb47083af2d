/// Deterministic answers for a step: for each input, values at the boundary
/// of every rule that pass, and for every rule one value that fails exactly
/// that rule (issue 14, `parley samples`).
///
/// Candidates come from the rules themselves (lengths either side of a bound,
/// strings walked through the pattern's own automaton, numbers one unit
/// either side of a bound, e-mails and dates at the edges of their grammars);
/// each is kept only when the interpreter confirms its label, so a label can
/// never be wrong, only missing — and a missing one is reported as a
/// ``SampleGap``. Pure: the same seed gives the same samples, byte for byte.
public struct SampleGenerator: Sendable {
    /// Longest value (in scalars) the generator builds; longer length bounds are reported as gaps.
    public static let maximumLength = 10_000
    /// Most candidates tried to make a `requiredIf` predicate hold.
    static let maximumPredicateAttempts = 256

    /// The seed every choice derives from.
    public let seed: UInt64

    /// A generator; the same seed always gives the same samples.
    public init(seed: UInt64 = 0) {
        self.seed = seed
    }

    /// Samples for every step of `flow` (or just `step`); `nil` when `step` is not in the flow.
    ///
    /// With `capabilities`, samples aimed at a rule that core cannot run are marked deferred.
    /// Steps are sampled in flow order, each with the passing answers of the steps before it as context, so
    /// a rule naming an earlier step's field (`equalsField`, `requiredIf`) has a value to compare with.
    public func samples(for flow: Flow, step: String? = nil, capabilities: CapabilitySet? = nil) -> FlowSamples? {
        if let step, flow.step(step) == nil { return nil }
        var context = Answers()
        var sampled: [StepSamples] = []
        for candidate in flow.steps {
            let samples = samples(for: candidate, context: context, capabilities: capabilities)
            for field in samples.answers.fieldIds { context[field] = samples.answers[field] }
            if step == nil || step == candidate.id { sampled.append(samples) }
        }
        return FlowSamples(flow: flow.id, seed: seed, steps: sampled)
    }

    /// Samples for one step; `context` holds answers of earlier steps its rules may name.
    public func samples(for step: Step, context: Answers = Answers(), capabilities: CapabilitySet? = nil)
        -> StepSamples
    {
        var search = SampleSearch(screen: step.screen, seed: seed, context: context)
        search.settleBase()
        var samples: [Sample] = []
        var gaps: [SampleGap] = []
        for index in search.fields.indices {
            let field = search.fields[index]
            for (position, rule) in search.nodes[index].validation.enumerated() where rule.isKnown {
                let deferred = capabilities.map { !$0.supports(rule: rule) } ?? false
                for expectation in [Sample.Expectation.pass, .fail] {
                    let found =
                        expectation == .pass ? search.passing(index, aimedAt: rule) : search.failing(index, only: rule)
                    guard let answers = found else {
                        gaps.append(
                            SampleGap(field: field, rule: rule.name, ruleIndex: position, expectation: expectation))
                        continue
                    }
                    // Two rules can share a boundary (e.g. `required` and `minLength: 1`): keep the first label.
                    if expectation == .pass,
                        samples.contains(where: {
                            $0.field == field && $0.expectation == .pass && $0.answers == answers
                        })
                    {
                        continue
                    }
                    samples.append(
                        Sample(
                            field: field, rule: rule.name, ruleIndex: position, expectation: expectation,
                            answers: search.stepAnswers(answers), isDeferred: deferred))
                }
            }
        }
        return StepSamples(
            step: step.id, context: context, answers: search.stepAnswers(search.base),
            isValid: search.isValid(search.base), samples: samples, gaps: gaps)
    }
}
