/// Everything the server and a client decide when a step's answers are submitted, in one call
/// (docs/expressions.md, docs/sessions.md): which inputs are hidden, which submitted answers are
/// therefore cleared, what the rules and transitions read, the validation outcome and the next
/// step. The server, `parley validate`, path replay and ParleyClient all go through it, so they
/// cannot drift.
public struct StepEvaluation: Sendable, Equatable {
    /// Submitted field ids whose input is hidden, in document order: dropped before anything is
    /// stored (the answer response's `"cleared"`).
    public let cleared: [String]
    /// The step's answers to store: the submitted ones without the cleared fields.
    public let answers: Answers
    /// What rules, transitions and templates read: the path's answers and the screen's, hidden
    /// fields cleared, with the flow's computed values over them.
    public let environment: ExpressionEnvironment
    /// Which nodes and fields of the screen are hidden.
    public let visibility: ScreenVisibility
    /// The rule interpreter's outcome over the visible inputs.
    public let validation: ValidationOutcome
    /// The text of every template of the screen's visible nodes (fallbacks not included), in
    /// document order: what a core shows as the user types. Empty when evaluated with
    /// `resolvingTexts: false` (the server judging an answer needs no text).
    public let texts: [TemplateText]
    /// The step to go to when the answers are valid: the first transition whose `when` holds over
    /// ``environment``; `nil` when invalid, when no transition matches or when `next` is empty.
    public let nextStepId: String?

    /// Evaluates a flow's step for submitted `answers`, `context` being the answers of the earlier
    /// steps of the path (laid over each other in order). `resolvingTexts: false` leaves
    /// ``texts`` empty: judging an answer (sessions, path replay) reads no template, and resolving
    /// them was most of what expressions added to an answer's cost.
    public static func evaluate(
        flow: Flow, step: Step, answers: Answers, context: Answers = Answers(),
        mode: RuleInterpreter.Mode = .server, resolvingTexts: Bool = true
    ) -> StepEvaluation {
        evaluate(
            screen: step.screen, graph: flow.computedGraph, answers: answers, context: context, mode: mode,
            transitions: step.next, resolvingTexts: resolvingTexts)
    }

    /// Evaluates a screen on its own (no transitions); `computed` are the flow's computed values.
    public static func evaluate(
        screen: Screen, computed: [ComputedValue], answers: Answers, context: Answers = Answers(),
        mode: RuleInterpreter.Mode = .server, transitions: [Transition] = [], resolvingTexts: Bool = true
    ) -> StepEvaluation {
        evaluate(
            screen: screen, graph: ComputedGraph(computed), answers: answers, context: context, mode: mode,
            transitions: transitions, resolvingTexts: resolvingTexts)
    }

    private static func evaluate(
        screen: Screen, graph: ComputedGraph, answers: Answers, context: Answers, mode: RuleInterpreter.Mode,
        transitions: [Transition], resolvingTexts: Bool
    ) -> StepEvaluation {
        var evaluator = ExpressionEvaluator(
            graph: graph, answers: Answers.onPath(answers, context: context, screen: screen))
        let visibility = ScreenVisibility.resolve(screen, evaluator: &evaluator)
        var stored = answers
        var cleared: [String] = []
        for field in visibility.hiddenFields where answers.hasValue(field) {
            cleared.append(field)
            stored[field] = nil
        }
        let texts =
            resolvingTexts ? TemplateText.resolve(screen, visibility: visibility, evaluator: &evaluator) : []
        let environment = evaluator.environment()
        let validation = RuleInterpreter(mode: mode).validate(
            screen: screen, submitted: stored, environment: environment, visibility: visibility)
        let next = validation.valid ? transitions.first { $0.when.map(environment.holds) ?? true }?.goto : nil
        return StepEvaluation(
            cleared: cleared, answers: stored, environment: environment, visibility: visibility,
            validation: validation, texts: texts, nextStepId: next)
    }

    /// Visibility alone, without validating: which submitted answers of `step` are cleared, and the
    /// answers kept. What the server applies when it rebuilds a path's answers.
    public static func clearing(
        flow: Flow, step: Step, answers: Answers, context: Answers = Answers()
    ) -> (cleared: [String], answers: Answers) {
        var evaluator = ExpressionEvaluator(
            flow: flow, answers: Answers.onPath(answers, context: context, screen: step.screen))
        let visibility = ScreenVisibility.resolve(step.screen, evaluator: &evaluator)
        var kept = answers
        var cleared: [String] = []
        for field in visibility.hiddenFields where answers.hasValue(field) {
            cleared.append(field)
            kept[field] = nil
        }
        return (cleared, kept)
    }
}
