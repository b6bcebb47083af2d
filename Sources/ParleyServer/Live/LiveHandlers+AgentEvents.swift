import Foundation
import ParleyCore
import ParleyHTTP

extension LiveHandlers {
    /// `POST /v1/sessions/{id}/events` (`agent` scope, DESIGN.md "Live sessions"): `say` appends
    /// a message, `goto` moves the session to a step of its pinned version. Either bumps `rev`,
    /// is logged and notified like any change, and answers the new snapshot.
    ///
    /// `rev` is optional: an agent speaks into a session whatever the user is doing, so without
    /// it the event applies to the current rev (a lost race is retried on the new one); with it,
    /// it is a compare-and-set like answers (409 `stale-rev`). `Idempotency-Key` works as on answers.
    func actInSession(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try SessionRequest.id(requestContext)
        let body = try JSONBody.object(request)
        let action = try AgentAction(body, configuration: configuration)
        let expectedRev: Int? = body["rev"] == nil || body["rev"] == .null ? nil : try SessionRequest.rev(body)
        let retry = try SessionRequest.idempotencyKey(request).map {
            IdempotentRequest(key: $0, fingerprint: SessionRequest.fingerprint("events", body))
        }
        if let retry, let replay = try await ledger.replayed(id, retry) { return replay }
        var attempt = 0
        while true {
            attempt += 1
            // Without a rev (or on a retry) the stored state, never a cached one that may be stale.
            let (record, version) = try await ledger.current(id, clientRev: attempt == 1 ? expectedRev : nil)
            if record.status == .completed {
                throw ServiceProblem.sessionConflict(
                    "session-completed", "The session is completed; nothing more happens in it.",
                    try ledger.snapshot(of: record, in: version))
            }
            if let expectedRev, expectedRev != record.rev {
                throw ServiceProblem.sessionConflict(
                    "stale-rev", "The session is at rev \(record.rev), not \(expectedRev).",
                    try ledger.snapshot(of: record, in: version))
            }
            let change = try agentChange(action, record, version)
            do {
                return try await ledger.commit(change, from: record, in: version, retry: retry) {
                    metrics.increment(.liveAgentEvents, labels: [("kind", action.kind)])
                }
            } catch let error as HTTPError where expectedRev == nil && attempt < 3 && error.type.hasSuffix("stale-rev")
            {
                continue  // another change won the rev: apply the event on top of it
            }
        }
    }

    /// The stored change an agent's action makes.
    private func agentChange(_ action: AgentAction, _ record: SessionRecord, _ version: StoredFlowVersion)
        throws(HTTPError) -> SessionStore.Change
    {
        switch action {
        case .say(let text, let from):
            let count = record.messages.arrayValue?.count ?? 0
            guard count < configuration.maxSessionMessages else {
                throw ServiceProblem.sessionConflict(
                    "messages-full",
                    "The session holds its maximum of \(configuration.maxSessionMessages) messages.",
                    try ledger.snapshot(of: record, in: version))
            }
            let message: JSONValue = [
                "rev": .number(JSONNumber(record.rev + 1)), "from": .string(from), "text": .string(text),
                "at": .string(
                    Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))),
            ]
            let after = record.advanced(
                step: record.step, path: record.path, values: record.values, forward: record.forward,
                messages: .array((record.messages.arrayValue ?? []) + [message]), expiresAt: ledger.sessionExpiry())
            return SessionStore.Change(
                after: after, kind: "say", step: record.step, answers: nil, sensitive: version.sensitiveFields,
                outcome: message, nextStep: nil, complete: nil)
        case .goto(let target):
            guard version.flow.step(target) != nil else {
                throw ServiceProblem.make(
                    .unprocessableContent, "unknown-step", "No such step",
                    "Version \(record.version) of flow \"\(record.flowId)\" has no step \"\(target)\".")
            }
            var path = Array(record.path)
            var values = Answers()
            var logged: Answers?
            if let index = path.firstIndex(where: { $0.step.isScalarEqual(to: target) }) {
                // Back to a step already confirmed: like going back, its answers return as values.
                values = path[index].answers
                path.removeSubrange(index...)
            } else if target.isScalarEqual(to: record.step) {
                values = record.values
            } else {
                // Forward: the step the user was on joins the path with what it held, less the
                // answers of inputs hidden there (DESIGN.md "Expressions": never stored, never delivered).
                var kept = record.values
                if let current = version.flow.step(record.step) {
                    kept =
                        StepEvaluation.clearing(
                            flow: version.flow, step: current, answers: record.values,
                            context: PathEntry.merged(record.path, in: version.flow)
                        ).answers
                }
                path.append(PathEntry(step: record.step, answers: kept))
                logged = kept
            }
            let after = record.advanced(
                step: target, path: SessionPath(path), values: values, forward: [], expiresAt: ledger.sessionExpiry())
            return SessionStore.Change(
                after: after, kind: "goto", step: record.step, answers: logged, sensitive: version.sensitiveFields,
                outcome: nil, nextStep: target, complete: nil)
        }
    }
}
