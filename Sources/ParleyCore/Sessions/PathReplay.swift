/// Replays a session's whole path on one flow version before it may complete (docs/sessions.md):
/// the one authoritative check that the walk could have happened through the API.
///
/// The path must start at `flow.start`; every step is validated in server mode with the answers
/// of all earlier steps as context, hidden inputs skipped and their answers cleared
/// (``StepEvaluation``); every step's transition, evaluated as the server evaluated it,
/// must choose the step that follows it; and the last step must be terminal (an empty `next`).
/// Pure and total: any path, however malformed, yields an outcome, never a crash. Each entry is
/// validated once (linear in its answers and screen), and the context only ever holds fields of
/// steps that validated, so it stays within the flow's own fields.
public struct PathReplay: Sendable {
    /// What replaying a path concluded.
    public enum Outcome: Sendable, Equatable {
        /// The path is a valid walk; the final answers are exactly the fields of its steps,
        /// merged in path order (a step visited again replaces its earlier visit's answers).
        case completed(Answers)
        /// The path is not a valid walk; the refusal names the first step that breaks it.
        case refused(PathRefusal)
    }

    /// One entry of a path: the step shown and the answers given on it.
    public typealias Entry = (step: String, answers: Answers)

    /// The flow version the session is pinned to.
    public let flow: Flow

    /// Creates a replay of paths through `flow`.
    public init(flow: Flow) {
        self.flow = flow
    }

    /// The answers of `path` as the rules of the step after it read them: each entry's answers laid
    /// over the earlier ones, a step visited again replacing all its fields
    /// (``Answers/onPath(_:context:screen:)``). An entry naming no step of the flow adds its answers.
    ///
    /// This is the `context` to validate the next step in, and the completion's final answers;
    /// a server that builds its context any other way could accept an answer the replay refuses.
    public func answers(along path: [Entry]) -> Answers {
        var answers = Answers()
        for entry in path {
            guard let step = flow.step(entry.step) else {
                answers = answers.merging(entry.answers)
                continue
            }
            let kept = StepEvaluation.clearing(flow: flow, step: step, answers: entry.answers, context: answers).answers
            answers = Answers.onPath(kept, context: answers, screen: step.screen)
        }
        return answers
    }

    /// Replays `path` from `flow.start`.
    public func replay(_ path: [Entry]) -> Outcome {
        guard let first = path.first else { return .refused(PathRefusal(index: 0, step: nil, reason: .emptyPath)) }
        guard first.step.isScalarEqual(to: flow.start) else {
            return .refused(PathRefusal(index: 0, step: first.step, reason: .notAtStart(start: flow.start)))
        }
        var context = Answers()
        for (index, entry) in path.enumerated() {
            func refused(_ reason: PathRefusal.Reason) -> Outcome {
                .refused(PathRefusal(index: index, step: entry.step, reason: reason))
            }
            guard let step = flow.step(entry.step) else { return refused(.unknownStep) }
            // Visibility and computed values are recomputed from the path itself: a hidden field's
            // answer is cleared, never carried into the context or the completion.
            let evaluation = StepEvaluation.evaluate(
                flow: flow, step: step, answers: entry.answers, context: context, resolvingTexts: false)
            guard evaluation.validation.valid else { return refused(.invalidAnswers(evaluation.validation.errors)) }
            let chosen = evaluation.nextStepId
            // A step visited again replaces what its earlier visit answered (absent now is absent).
            context = Answers.onPath(evaluation.answers, context: context, screen: step.screen)
            if index + 1 < path.count {
                let following = path[index + 1].step
                guard let chosen, chosen.isScalarEqual(to: following) else {
                    return refused(.wrongTransition(chosen: chosen, following: following))
                }
            } else if !step.next.isEmpty {
                return refused(.notTerminal(chosen: chosen))
            }
        }
        return .completed(context)
    }
}
