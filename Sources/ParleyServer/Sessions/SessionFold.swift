import ParleyCore

/// The current state of a session as a fold of its log (issue 27, docs/design-notes.md "The
/// session log is the truth"): what a process rebuilds on a cache miss, on another replica, after
/// a restart, and for a session written before migration 0009 (whose log already held every
/// change). It applies each row as the handler that wrote it changed the state.
enum SessionFold {
    /// What the `sessions` row says: identity, the pinned version, and how the session ended.
    struct Identity: Sendable {
        let id: SessionID
        let flowId: String
        let version: Int
        let channel: String
        let core: String
        let locale: String?
        let status: SessionStatus
        /// The row's expiry: the truth only for rows written before migration 0009.
        let expiresAt: Double
        let month: Int
    }

    /// The state after `log` (oldest first); `nil` when the log is empty.
    static func record(_ identity: Identity, log: [SessionStore.LogRow]) -> SessionRecord? {
        guard let first = log.first else { return nil }
        var state = State(step: first.step)
        for row in log { state.apply(row) }
        let last = log[log.count - 1]
        if identity.status == .completed {
            // The completing answer leaves nothing to prefill and nothing ahead.
            state.values = Answers()
            state.forward = []
        }
        return SessionRecord(
            id: identity.id, flowId: identity.flowId, version: identity.version, channel: identity.channel,
            core: identity.core, locale: identity.locale, rev: last.rev, status: identity.status, step: state.step,
            path: SessionPath(state.path), values: state.values, forward: state.forward,
            messages: .array(state.messages),
            expiresAt: log.last(where: { $0.expiresAt != nil })?.expiresAt ?? identity.expiresAt,
            month: last.month ?? identity.month)
    }

    /// The walk so far.
    struct State {
        var step: String
        var path: [PathEntry] = []
        var values = Answers()
        var forward: [PathEntry] = []
        var messages: [JSONValue] = []

        /// One logged change, as its handler made it (SessionMove, back, the agent's events).
        mutating func apply(_ row: SessionStore.LogRow) {
            switch row.kind {
            case "start":
                self = State(step: row.step)
            case "answer":
                path.append(PathEntry(step: row.step, answers: Self.answers(row)))
                let next = row.nextStep ?? row.step
                if let ahead = forward.first, ahead.step.isScalarEqual(to: next) {
                    values = ahead.answers
                    forward.removeFirst()
                } else {
                    values = Answers()
                    forward = []
                }
                step = next
            case "back":
                guard let previous = path.popLast() else { return }
                forward.insert(PathEntry(step: step, answers: values), at: 0)
                values = previous.answers
                step = previous.step
            case "say":
                if let message = row.outcome { messages.append(message) }
            case "goto":
                guard let target = row.nextStep else { return }
                if let index = path.firstIndex(where: { $0.step.isScalarEqual(to: target) }) {
                    values = path[index].answers
                    path.removeSubrange(index...)
                } else if !target.isScalarEqual(to: step) {
                    path.append(PathEntry(step: step, answers: Self.answers(row)))
                    values = Answers()
                }
                forward = []
                step = target
            default:
                // expire, erase: the row's status says it; the walk stays as it was.
                break
            }
        }

        private static func answers(_ row: SessionStore.LogRow) -> Answers { row.answers ?? Answers() }
    }
}
