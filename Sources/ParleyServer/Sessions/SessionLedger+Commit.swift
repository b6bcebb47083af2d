import ParleyCore
import ParleyCrypto
import ParleyHTTP

extension SessionLedger {
    /// The stored response for a retried `Idempotency-Key` (same body), 422 for the key with another
    /// body, `nil` when the key is new.
    func replayed(_ id: SessionID, _ retry: IdempotentRequest) async throws -> HTTPResponse? {
        guard let stored = try await sessions.recorded(id, idempotencyKey: retry.key) else { return nil }
        let response = try Self.replay(stored, retry)
        await announceReplayed(id, body: stored.body)
        return response
    }

    /// Makes every process forget states older than the rev a replayed change reached.
    ///
    /// The change's own writer notified it after its commit, in a transaction of its own (the
    /// appender's batch pipeline). A writer killed between the two (or whose connection Postgres
    /// lost before it read the notification) committed a change no process heard of: the others
    /// kept serving the state before it until the session's next change, which for a completed
    /// session never comes (`ProxiedScaleOutScenarioTests` met it once: a replica killed under
    /// load, HAProxy retrying the answer on a survivor, the other survivor serving rev 4 of 5).
    /// A replay is how a client (or a proxy) learns what such a lost response held, so it
    /// announces the change again: this process drops its older state at once, and the others
    /// through the same notification the writer would have sent. Only replays pay for it.
    private func announceReplayed(_ id: SessionID, body: [UInt8]) async {
        guard case .object(let snapshot) = try? JSONParser.parse(body), case .number(let number)? = snapshot["rev"],
            let rev = number.intValue, rev > 0
        else { return }
        snapshots.invalidate(key: id.key, rev: rev)
        let notice = "\(id.key.hex):\(rev)"
        do {
            try await sessions.pool.query("SELECT pg_notify('parley_sessions', \(notice))")
        } catch {
            logger.warning("a replayed change was not announced", metadata: ["error": "\(error)"])
        }
    }

    private static func replay(_ stored: SessionStore.StoredResponse, _ retry: IdempotentRequest) throws(HTTPError)
        -> HTTPResponse
    {
        guard ConstantTime.equals(stored.requestHash, retry.fingerprint) else {
            throw ServiceProblem.idempotencyKeyReused()
        }
        return .json(stored.body, status: HTTPStatus(code: stored.status), headers: ["Idempotent-Replayed": "true"])
    }

    /// Commits a change guarded by the session's rev. On success the new snapshot (and the state it
    /// shows, so the next change reads nothing) is cached and
    /// returned (and recorded for the `Idempotency-Key`); when another writer won the rev, 409 with
    /// the winner's snapshot; a completion whose replay fails is refused and logged, never written.
    ///
    /// `cleared`, for answers: the submitted fields dropped because their input was hidden; the
    /// response carries them as `"cleared"` (DESIGN.md "Expressions"), always, `[]` when none.
    ///
    /// Always inlined into its caller: as a call of its own, the return from it was one more
    /// executor switch after the append (with the loop's task executor preference, each reads
    /// the task's status records under a lock) and one more async frame (~2,700 instructions an
    /// answer in all).
    @inline(__always)
    func commit(
        _ change: SessionStore.Change, from record: SessionRecord, in version: StoredFlowVersion,
        retry: IdempotentRequest?, cleared: [String]? = nil, onCommit: () -> Void
    ) async throws -> HTTPResponse {
        if !change.sensitive.isEmpty, configuration.dataKeyring.currentId == nil {
            throw ServiceProblem.make(
                .serviceUnavailable, "data-key-missing", "Sensitive answers cannot be stored",
                "This flow has sensitive fields and the server has no data key (PARLEY_DATA_KEY_FILE); "
                    + "answers are never stored unencrypted.")
        }
        let next = try snapshotBody(of: change.after, in: version)
        let body = cleared.map { next.body(cleared: $0) } ?? next.body
        var recorded = change
        recorded.idempotency = retry.map { ($0.key, $0.fingerprint, 200, body) }
        let result: SessionStore.ChangeResult
        do {
            result = try await sessions.apply(recorded, expectedRev: record.rev)
        } catch let refused as SessionStore.ReplayRefused {
            // Never the session id (a bearer capability): flow, version and why.
            logger.error(
                "refused to complete a session of \(record.flowId) v\(record.version): its history does not replay",
                metadata: ["reason": "\(refused.description)"])
            throw ServiceProblem.conflict(
                "session-replay-failed",
                "The session's history does not replay on version \(record.version); it cannot be completed.")
        }
        switch result {
        case .committed:
            var state = change.after
            if state.context == nil { state.context = PathEntry.merged(state.path, in: version.flow) }
            // The state alone: this response carries its snapshot (a read renders it again).
            snapshots.store(state, bodyCount: next.bodyCount, id: record.id)
            onCommit()
            return HTTPResponse(status: .ok, headers: next.headers, body: body)
        case .idempotencyInFlight:
            throw ServiceProblem.idempotencyInFlight()
        case .idempotencyRecorded(let stored):
            guard let retry else { throw ServiceProblem.idempotencyInFlight() }
            return try Self.replay(stored, retry)
        case .lostRace:
            let current = try await loadSession(record.id)
            let latest = try snapshot(of: current, in: version)
            if current.status == .completed {
                throw ServiceProblem.sessionConflict(
                    "session-completed", "The session is completed; it takes no more answers.", latest)
            }
            throw ServiceProblem.sessionConflict(
                "stale-rev",
                "Another change reached the session first (now rev \(current.rev)); redraw from the snapshot.",
                latest)
        }
    }
}
