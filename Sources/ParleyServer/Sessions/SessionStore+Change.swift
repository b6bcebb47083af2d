import Foundation
import ParleyCore
import ParleyCrypto
import ParleyPostgres

extension SessionStore {
    /// Refused completion: the stored history no longer replays on the pinned version.
    struct ReplayRefused: Error, CustomStringConvertible {
        let description: String
    }

    /// Commits one change (issue 27): one `session_log` row appended at the change's rev, in a
    /// batch with other sessions' changes (``SessionAppender``); the primary key refuses it when
    /// that rev exists, which is the lost race, and fails nothing else in the batch. A completing
    /// change also writes the session's end, its completion and outbox rows, in the same
    /// statement and only when its append won; the idempotency record likewise. The caller hears
    /// back only after that transaction committed.
    func apply(_ change: Change, expectedRev: Int) async throws -> ChangeResult {
        let claim = change.idempotency.map { change.after.id.key.hex + ":" + $0.key }
        // Two requests with one key in this process: the second answers 409 at once.
        if let claim, !claims.claim(claim) { return .idempotencyInFlight }
        defer { if let claim { claims.release(claim) } }
        // Only a completing change reads its log (an async call each answer for nothing, else).
        let completion = change.complete == nil ? nil : try await completion(of: change)
        let append = try appendRow(change, completion: completion)
        guard try await appender.append(append) else {
            // A request with the same key (here or in another process) may be the one that won.
            if let record = change.idempotency,
                let stored = try await pool.withConnection({ connection in
                    try await recorded(Data(change.after.id.key.bytes), record.key, connection)
                })
            {
                return .idempotencyRecorded(stored)
            }
            return .lostRace
        }
        return .committed
    }

    /// The completion a completing change writes: the stored log up to the expected rev plus this
    /// change, replayed (the log as stored, so a history changed behind the server's back is
    /// refused). Read before the append; the rev guard makes it exact, since a log that grew
    /// meanwhile means the session moved on and the append is refused.
    private func completion(of change: Change) async throws -> Completion? {
        guard let complete = change.complete else { return nil }
        let key = Data(change.after.id.key.bytes)
        let earlier = try await pool.withConnection { connection in try await log(key, connection) }
        let this = LogRow(
            rev: change.after.rev, kind: change.kind, step: change.step, answers: change.answers,
            nextStep: change.nextStep)
        return try complete(earlier.filter { $0.rev < change.after.rev } + [this])
    }

    /// The log row of a change, sealed, with its completion and idempotency record.
    private func appendRow(_ change: Change, completion: Completion?) throws -> SessionAppend {
        // The state's fields are read in place: a copy of it (or of its key through `Data` and
        // back) cost a retain of each of its parts on every answer.
        let key = change.after.id.key
        let sensitive = change.sensitive
        var loggedAnswers: [UInt8] = []
        if let answers = change.answers {
            if sensitive.isEmpty || !answers.fieldIds.contains(where: sensitive.contains) {
                // Nothing to seal (no sensitive field among these answers, as on most steps of a
                // flow that has some): the canonical bytes written straight from the answers, the
                // bytes sealing would have encoded, into room for a step's few answers (grown
                // from empty, the array was reallocated twice an answer).
                loggedAnswers.reserveCapacity(Self.answersRoom)
                answers.writeCanonicalJSON(into: &loggedAnswers)
            } else {
                loggedAnswers = CanonicalJSON.encode(
                    try sealing.seal(answers, sensitive: sensitive, session: key.bytes))
            }
        }
        var append = SessionAppend(
            key: key, rev: change.after.rev, month: change.after.month, kind: change.kind,
            step: change.step, answers: loggedAnswers, outcome: change.outcome.map(Self.outcomeText) ?? "",
            nextStep: change.nextStep ?? "", core: change.after.core, expiresAt: change.after.expiresAt,
            depth: change.after.path.count)
        if let completion {
            // The row keeps the path's step ids (the funnel's), never its answers: those are the
            // log's and the completion's.
            let steps = JSONValue.array(change.after.path.map { ["step": .string($0.step)] })
            append.completion = (
                Self.text(steps), Self.text(.array(completion.path.map(JSONValue.string))),
                Self.text(try sealing.seal(completion.answers, sensitive: sensitive, session: key.bytes))
            )
        }
        if let record = change.idempotency {
            let response = try recordable(
                record.body, sensitive: sensitive, key: Data(key.bytes), idempotencyKey: record.key)
            append.idempotency = (record.key, Hex.encode(record.requestHash), record.status, Hex.encode(response))
        }
        return append
    }

    /// The bytes reserved for a log row's answers: a step's few fields and values fit (longer ones
    /// grow the array as before).
    private static let answersRoom = 128

    /// Canonical JSON text.
    static func text(_ value: JSONValue) -> String { String(decoding: CanonicalJSON.encode(value), as: UTF8.self) }

    /// An outcome's canonical text; that of a clean outcome (almost every answer's) written once.
    static func outcomeText(_ outcome: JSONValue) -> String {
        outcome == ValidationOutcome.cleanJSON ? cleanOutcomeText : text(outcome)
    }

    private static let cleanOutcomeText = text(ValidationOutcome.cleanJSON)

    /// Expires up to `limit` sessions idle past their TTL (issue 27: expiry is lazy). Candidates
    /// come from the row's expiry, which is the one it had at start or at its last sweep; each
    /// one's latest log row says the truth: idle past it, an `expire` row is appended at the next
    /// rev (guarded like any change, so an answer racing with the sweep makes exactly one of them
    /// win) and the row marked expired, with `session.expired` queued for every subscribed
    /// webhook; still in use, the row's expiry moves forward to the log's. Rows another process is
    /// sweeping are skipped. Returns how many expired per flow version.
    func expireDue(limit: Int) async throws -> [(flow: String, version: Int, count: Int)] {
        let rows = try await pool.query(
            """
            WITH due AS (
                SELECT key, core_version, flow_id, version FROM sessions WHERE status = 'active' AND expires_at <= now()
                ORDER BY expires_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
            ), latest AS (
                SELECT due.*, l.rev, l.month, l.expires_at AS idle_until, coalesce(l.next_step, l.step) AS here, l.depth
                FROM due CROSS JOIN LATERAL (
                    SELECT rev, month, expires_at, step, next_step, depth FROM session_log
                    WHERE session_key = due.key ORDER BY rev DESC LIMIT 1
                ) l
            ), moved AS (
                UPDATE sessions s SET expires_at = latest.idle_until
                FROM latest WHERE s.key = latest.key AND latest.idle_until > now()
            ), logged AS (
                INSERT INTO session_log (session_key, rev, month, kind, step, core_version, depth)
                SELECT key, rev + 1, month, 'expire', here, core_version, depth FROM latest
                WHERE idle_until IS NULL OR idle_until <= now()
                ON CONFLICT DO NOTHING
                RETURNING session_key, rev, step
            ), expired AS (
                UPDATE sessions s SET status = 'expired', rev = logged.rev, step = logged.step, updated_at = now()
                FROM logged WHERE s.key = logged.session_key
                RETURNING s.key, s.rev, s.step, s.core_version, s.flow_id, s.version
            ), announced AS (\(unsafeRaw: WebhookOutbox.announceExpiries)
            )
            SELECT flow_id, version, count(*)::bigint AS n FROM expired GROUP BY flow_id, version
            """)
        return try rows.map { row in
            (try row.decode(column: "flow_id"), try row.decode(column: "version"), try row.decode(column: "n"))
        }
    }

    static func jsonb(_ value: JSONValue) -> PostgresJSONB { PostgresJSONB(bytes: CanonicalJSON.encode(value)) }
}
