import ParleyCore

/// Completion (DESIGN.md "Sessions"): the whole path is rebuilt from the append-only log and
/// replayed from `start` on the pinned version before the completion row is written.
enum SessionCompletion {
    /// The path the log describes: `answer` rows confirm a step, `back` rows undo the last one.
    /// `nil` when the log cannot describe a walk (a row of an unknown kind, a `back` that
    /// does not return to the step it names).
    static func path(from log: [SessionStore.LogRow]) -> [PathEntry]? {
        var path: [PathEntry] = []
        for row in log {
            switch row.kind {
            case "start":
                path = []
            case "answer":
                guard let answers = row.answers else { return nil }
                path.append(PathEntry(step: row.step, answers: answers))
            case "back":
                guard let last = path.popLast(), last.step.isScalarEqual(to: row.step) else { return nil }
            case "say", "expire":
                continue
            case "goto":
                // An agent moved the session (LiveHandlers+AgentEvents): back to a step of the path
                // truncates it there; forward appends the step the user was on.
                guard let target = row.nextStep else { return nil }
                if let index = path.firstIndex(where: { $0.step.isScalarEqual(to: target) }) {
                    path.removeSubrange(index...)
                } else if !row.step.isScalarEqual(to: target) {
                    guard let answers = row.answers else { return nil }
                    path.append(PathEntry(step: row.step, answers: answers))
                }
            default:
                return nil
            }
        }
        return path
    }

    /// The store's completion callback for a session of `flow`: replays the logged path plus the
    /// terminal step it reached, and refuses (throws) when that is not a valid walk.
    static func replayer(_ flow: Flow) -> @Sendable ([SessionStore.LogRow]) throws -> SessionStore.Completion {
        { log in
            guard let path = path(from: log), let last = log.last else {
                throw SessionStore.ReplayRefused(description: "the session log does not describe a path")
            }
            var walk = path.map { (step: $0.step, answers: $0.answers) }
            if let terminal = last.nextStep, !(walk.last?.step.isScalarEqual(to: terminal) ?? false) {
                walk.append((step: terminal, answers: Answers()))
            }
            switch PathReplay(flow: flow).replay(walk) {
            case .completed(let answers):
                return SessionStore.Completion(path: walk.map(\.step), answers: answers)
            case .refused(let reason):
                throw SessionStore.ReplayRefused(description: "\(reason)")
            }
        }
    }
}
