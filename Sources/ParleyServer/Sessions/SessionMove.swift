import ParleyCore
import ParleyHTTP

/// Where a valid answer takes a session: the next step, the path with this step confirmed, the
/// prefill of the next step and what stays ahead (DESIGN.md "Sessions", `next` and `back`).
struct SessionMove: Sendable {
    let step: String
    let path: SessionPath
    let values: Answers
    let forward: [PathEntry]
    /// The step reached is terminal: the change completes the session.
    let completes: Bool

    /// The move after `evaluation` found the answers of the session's current `step` valid: the
    /// path records the answers it kept (hidden fields cleared), and the next step is the one its
    /// transitions chose over the path's answers and the flow's computed values.
    static func answering(
        _ record: SessionRecord, step: Step, evaluation: StepEvaluation, in version: StoredFlowVersion
    )
        throws(HTTPError) -> SessionMove
    {
        let path = record.path.appending(PathEntry(step: step.id, answers: evaluation.answers))
        guard let nextId = evaluation.nextStepId else {
            guard step.next.isEmpty else {
                throw ServiceProblem.conflict(
                    "no-transition",
                    "No transition of step \"\(step.id)\" matches these answers; the flow cannot go on.")
            }
            // Only a terminal start step is answered in place: the session completes on it.
            return SessionMove(step: step.id, path: path, values: Answers(), forward: [], completes: true)
        }
        guard let terminal = version.isTerminalStep(nextId) else {
            throw ServiceProblem.notFound("the flow's transition names a missing step \"\(nextId)\"")
        }
        if terminal {
            return SessionMove(step: nextId, path: path, values: Answers(), forward: [], completes: true)
        }
        // Steps undone by `back` stay ahead while the path leads through them again; a changed
        // answer that takes another branch drops them (they are not part of the result).
        var forward = record.forward
        var values = Answers()
        if let ahead = forward.first, ahead.step.isScalarEqual(to: nextId) {
            values = ahead.answers
            forward.removeFirst()
        } else {
            forward = []
        }
        return SessionMove(step: nextId, path: path, values: values, forward: forward, completes: false)
    }
}
