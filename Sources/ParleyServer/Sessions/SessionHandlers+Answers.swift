import ParleyCore
import ParleyHTTP

extension SessionHandlers {
    /// `POST /v1/sessions/{id}/answers` `{"rev", "step", "answers"}`: validates the current step with
    /// the pinned version's full rule set over the answers of the whole path, then moves the session
    /// to the step `next` chooses, completing it when that step is terminal.
    ///
    /// Always inlined into the route's work (``ParleyService/endpoint(_:_:)``), as
    /// ``SessionLedger/commit(_:from:in:retry:cleared:onCommit:)`` is into it: one async frame
    /// fewer, and the task's frames stay within fewer of the task allocator's slabs.
    @inline(__always)
    func answerSession(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let idText = try SessionRequest.idText(requestContext)
        let input = try AnswerRequest.read(request, maxLength: configuration.maxAnswerLength)
        let (rev, stepId, answers, retry) = (input.rev, input.step, input.answers, input.retry)
        if let retry, let replay = try await ledger.replayed(SessionID(idText), retry) { return replay }

        // From the snapshot cache when it holds the client's rev: no read before the append (and
        // no async call when the pinned version is cached too). The cached state carries the id's
        // key, so a hit does not hash the id (SHA-256, ~4k instructions); a miss hashes it to read.
        let record: SessionRecord
        let version: StoredFlowVersion
        if let known = try ledger.cached(idText, clientRev: rev) {
            (record, version) = known
        } else {
            (record, version) = try await ledger.current(SessionID(idText), clientRev: rev, caching: false)
        }
        try checkCurrent(record, version, step: stepId, rev: rev)
        // The session's locale: the interpreter's messages come from the rules in that language.
        guard let step = version.step(record.step, in: record.locale) else {
            throw ServiceProblem.notFound("version \(record.version) has no step \"\(record.step)\"")
        }
        let earlier = ledger.context(record, in: version)
        // Visibility, computed values, rules and transitions in one call, as every core runs them
        // (DESIGN.md "Expressions"): a hidden input is not validated and its answer is cleared.
        let evaluation = version.withFlow(in: record.locale) { flow in
            StepEvaluation.evaluate(flow: flow, step: step, answers: answers, context: earlier, resolvingTexts: false)
        }
        let outcome = evaluation.validation
        guard outcome.valid else {
            countStep(record, outcome: .invalid, loop: requestContext.loopIndex)
            let core = try cores.resolve(header: record.core)
            for error in outcome.errors {
                metrics.increment(
                    .submitRejections, labels: [("rule", error.rule), ("core", core.label)])
            }
            do {
                try await ledger.sessions.recordRejections(
                    record.id, step: record.step, fields: outcome.errors.map(\.field),
                    rules: outcome.errors.map(\.rule))
            } catch {
                // The rejection stands; only the rollout comparison misses it.
                logger.warning("could not count rejected answers: \(error)")
            }
            throw ServiceProblem.invalidAnswers(
                outcome, snapshot: try ledger.snapshot(of: record, in: version), cleared: evaluation.cleared)
        }
        let move = try SessionMove.answering(record, step: step, evaluation: evaluation, in: version)
        // The path's merged answers grow by this step's, hidden ones cleared: exactly what the
        // evaluation read (ScreenVisibility clears them from its answers), so they are taken from
        // it rather than merged again, and the next answer does not recompute them.
        let context = evaluation.environment.answers
        assert(context == Answers.onPath(evaluation.answers, context: earlier, screen: step.screen))
        let after = record.advanced(
            status: move.completes ? .completed : nil, step: move.step, path: move.path, values: move.values,
            forward: move.forward, expiresAt: ledger.sessionExpiry(), context: context,
            pathJSON: record.pathJSON(appending: step.id))
        let change = SessionStore.Change(
            after: after, kind: "answer", step: record.step, answers: evaluation.answers,
            sensitive: version.sensitiveFields, outcome: outcome.json,
            nextStep: move.step, complete: move.completes ? SessionCompletion.replayer(version.flow) : nil)
        return try await ledger.commit(change, from: record, in: version, retry: retry, cleared: evaluation.cleared) {
            countStep(record, outcome: .valid, loop: requestContext.loopIndex)
            if move.completes {
                metrics.increment(
                    .sessionCompletions,
                    labels: [("flow", record.flowId), ("version", String(record.version))])
            }
        }
    }

    /// `POST /v1/sessions/{id}/back` `{"rev"}`: returns to the previous step of the path, its answers
    /// given back as `values`.
    func backSession(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try SessionRequest.id(requestContext)
        let body = try JSONBody.object(request)
        let rev = try SessionRequest.rev(body)
        let retry = try SessionRequest.idempotencyKey(request).map {
            IdempotentRequest(key: $0, fingerprint: SessionRequest.fingerprint("back", body))
        }
        if let retry, let replay = try await ledger.replayed(id, retry) { return replay }

        let (record, version) = try await ledger.current(id, clientRev: rev, caching: false)
        try checkCurrent(record, version, step: nil, rev: rev)
        guard let previous = record.path.last else {
            throw ServiceProblem.sessionConflict(
                "at-start", "The session is at its first step; there is nothing to go back to.",
                try ledger.snapshot(of: record, in: version))
        }
        let after = record.advanced(
            step: previous.step, path: record.path.droppingLast(), values: previous.answers,
            forward: [PathEntry(step: record.step, answers: record.values)] + record.forward,
            expiresAt: ledger.sessionExpiry())
        let change = SessionStore.Change(
            after: after, kind: "back", step: previous.step, answers: nil, sensitive: version.sensitiveFields,
            outcome: nil, nextStep: nil,
            complete: nil)
        return try await ledger.commit(change, from: record, in: version, retry: retry) {}
    }

    /// 409s for a request that does not answer the session's current state (DESIGN.md "Sessions"): a stale
    /// rev first (the client is behind and must redraw), then a step that is not the current one.
    private func checkCurrent(_ record: SessionRecord, _ version: StoredFlowVersion, step: String?, rev: Int)
        throws(HTTPError)
    {
        if record.status == .completed {
            throw ServiceProblem.sessionConflict(
                "session-completed", "The session is completed; it takes no more answers.",
                try ledger.snapshot(of: record, in: version))
        }
        if rev != record.rev {
            throw ServiceProblem.sessionConflict(
                "stale-rev", "The session is at rev \(record.rev), not \(rev); redraw from the snapshot.",
                try ledger.snapshot(of: record, in: version))
        }
        if let step, !step.isScalarEqual(to: record.step) {
            throw ServiceProblem.sessionConflict(
                "step-mismatch", "The session is at step \"\(record.step)\"; answer that step.",
                try ledger.snapshot(of: record, in: version))
        }
    }

    private func countStep(_ record: SessionRecord, outcome: StepCounters.Outcome, loop: Int) {
        steps.count(flowId: record.flowId, version: record.version, step: record.step, outcome: outcome, loop: loop)
    }
}
