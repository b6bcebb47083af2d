import Foundation
import ParleyCore
import ParleyCrypto
import ParleyPostgres

extension SessionStore {
    /// Refused completion: the stored history no longer replays on the pinned version.
    struct ReplayRefused: Error, CustomStringConvertible {
        let description: String
    }

    /// Commits one change through the group committer (issue 15, "Writes"): one statement that
    /// updates the row guarded by the expected rev (and by the session still being active and
    /// unexpired) and, only when that update took, appends the log row, writes the completion and
    /// its outbox rows when the change completes the session, and records the idempotency key.
    /// A lost rev writes nothing and fails nothing, so the change shares its transaction and fsync
    /// with other sessions' changes without ever rolling them back; the caller hears back only
    /// after that transaction committed.
    func apply(_ change: Change, expectedRev: Int) async throws -> ChangeResult {
        let key = Data(change.after.id.key)
        let claim = change.idempotency.map { Hex.encode(Array(key)) + ":" + $0.key }
        // Two requests with one key in this process: the second answers 409 at once.
        if let claim, !claims.claim(claim) { return .idempotencyInFlight }
        defer { if let claim { claims.release(claim) } }
        let completion = try await completion(of: change)
        let statement = try changeStatement(change, expectedRev: expectedRev, completion: completion)
        let rows = try await committer.commit([statement])
        guard try rows.first?.first?.decode(Int.self, at: 0) == change.after.rev else {
            // A request with the same key (here or in another process) may be the one that won.
            if let record = change.idempotency,
                let stored = try await pool.withConnection({ connection in
                    try await recorded(key, record.key, connection)
                })
            {
                return .idempotencyRecorded(stored)
            }
            return .lostRace
        }
        return .committed
    }

    /// The completion a completing change writes: the log up to the expected rev plus this change,
    /// replayed. Read before the commit; the rev guard makes it exact, since a log that grew
    /// meanwhile means the session moved on and the guarded update writes nothing.
    private func completion(of change: Change) async throws -> Completion? {
        guard let complete = change.complete else { return nil }
        let key = Data(change.after.id.key)
        let earlier = try await pool.withConnection { connection in try await log(key, connection) }
        let this = LogRow(
            rev: change.after.rev, kind: change.kind, step: change.step, answers: change.answers?.json,
            nextStep: change.nextStep)
        return try complete(earlier.filter { $0.rev < change.after.rev } + [this])
    }

    /// The one statement of a change: a data-modifying CTE whose every insert reads the guarded
    /// update's row, so a lost rev (no row) inserts nothing; it returns the new rev, or no row.
    private func changeStatement(_ change: Change, expectedRev: Int, completion: Completion?) throws
        -> PostgresQuery
    {
        let key = Data(change.after.id.key)
        let after = change.after
        let session = Array(key)
        let sensitive = change.sensitive
        let path = try stored(after.path, sensitive: sensitive, session: session)
        let values = try sealing.seal(after.values, sensitive: sensitive, session: session)
        let forward = try stored(after.forward, sensitive: sensitive, session: session)
        let loggedAnswers = try change.answers.map { try sealing.seal($0, sensitive: sensitive, session: session) }
        let completedPath = completion.map { Self.jsonb(.array($0.path.map(JSONValue.string))) }
        let completedAnswers = try completion.map {
            Self.jsonb(try sealing.seal($0.answers, sensitive: sensitive, session: session))
        }
        let record = change.idempotency
        let response = try record.map {
            Data(try recordable($0.body, sensitive: sensitive, key: key, idempotencyKey: $0.key))
        }
        return """
            WITH updated AS (
                UPDATE sessions SET rev = rev + 1, status = \(after.status.rawValue), step = \(after.step),
                    path = \(Self.jsonb(path)),
                    "values" = \(Self.jsonb(values)),
                    forward = \(Self.jsonb(forward)),
                    messages = \(Self.jsonb(after.messages)),
                    updated_at = now(), expires_at = to_timestamp(\(after.expiresAt)),
                    completed_at = CASE WHEN \(after.status.rawValue) = 'completed' THEN now() END
                WHERE key = \(key) AND rev = \(expectedRev) AND status = 'active' AND expires_at > now()
                RETURNING key, rev
            ), logged AS (
                INSERT INTO session_log (session_key, rev, kind, step, answers, outcome, next_step, core_version)
                SELECT key, rev, \(change.kind), \(change.step), \(loggedAnswers.map(Self.jsonb)),
                       \(change.outcome.map(Self.jsonb)), \(change.nextStep), \(after.core)
                FROM updated
            ), completed AS (
                INSERT INTO completions AS c (session_key, flow_id, version, core_version, path, answers)
                SELECT key, \(after.flowId), \(after.version), \(after.core), \(completedPath), \(completedAnswers)
                FROM updated WHERE \(completion != nil)
                RETURNING c
            ), announced AS (\(unsafeRaw: WebhookOutbox.announceCompletions)
            ), recorded AS (
                INSERT INTO session_idempotency (session_key, key, request_sha256, status, response)
                SELECT key, \(record?.key), \(record.map { Data($0.requestHash) }), \(record?.status), \(response)
                FROM updated WHERE \(record != nil)
                ON CONFLICT DO NOTHING
            )
            SELECT rev FROM updated
            """
    }

    /// Marks up to `limit` sessions idle past their TTL as expired (rev + 1, an `expire` log row),
    /// skipping rows another process is sweeping or changing, and queues `session.expired` for
    /// every subscribed webhook in the same statement; returns how many per flow version.
    func expireDue(limit: Int) async throws -> [(flow: String, version: Int, count: Int)] {
        let rows = try await pool.query(
            """
            WITH due AS (
                SELECT key FROM sessions WHERE status = 'active' AND expires_at <= now()
                ORDER BY expires_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
            ), expired AS (
                UPDATE sessions s SET status = 'expired', rev = s.rev + 1, updated_at = now()
                FROM due WHERE s.key = due.key
                RETURNING s.key, s.rev, s.step, s.core_version, s.flow_id, s.version
            ), logged AS (
                INSERT INTO session_log (session_key, rev, kind, step, core_version)
                SELECT key, rev, 'expire', step, core_version FROM expired
            ), announced AS (\(unsafeRaw: WebhookOutbox.announceExpiries)
            )
            SELECT flow_id, version, count(*)::bigint AS n FROM expired GROUP BY flow_id, version
            """)
        return try rows.map { row in
            (try row.decode(column: "flow_id"), try row.decode(column: "version"), try row.decode(column: "n"))
        }
    }

    static func jsonb(_ value: JSONValue) -> PostgresJSONB { PostgresJSONB(bytes: CanonicalJSON.encode(value)) }

    /// Run first in every group-committed batch: its session updates are collected for one
    /// notification instead of one each (migration 0007).
    static let batchOpening: [PostgresQuery] = ["SELECT set_config('parley.session_changes', '+', true)"]

    /// Run last in every group-committed batch, before `COMMIT`: the collected "<hex key>:<rev>"
    /// entries as `parley_sessions` notifications, comma-separated, 100 to a payload (under
    /// NOTIFY's 8000 bytes); none when the batch changed no session.
    static let batchClosing: [PostgresQuery] = [
        """
        SELECT pg_notify('parley_sessions', string_agg(change, ',' ORDER BY position))
        FROM unnest(string_to_array(substr(current_setting('parley.session_changes', true), 3), ','))
             WITH ORDINALITY AS collected (change, position)
        GROUP BY (position - 1) / 100
        """
    ]
}
