import Foundation
import ParleyCore
import ParleyCrypto
import ParleyPostgres

extension SessionStore {
    /// Refused completion: the stored history no longer replays on the pinned version.
    struct ReplayRefused: Error, CustomStringConvertible {
        let description: String
    }

    /// Commits one change in one transaction: the update guarded by the expected rev (and by the
    /// session still being active and unexpired), its log row, the completion when the change
    /// completes the session, and the idempotency record. Nothing is written unless all is.
    func apply(_ change: Change, expectedRev: Int) async throws -> ChangeResult {
        let key = Data(change.after.id.key)
        let after = change.after
        return try await pool.withTransaction { connection in
            if let record = change.idempotency {
                // Two requests with one key: the second answers 409 at once instead of waiting.
                let locked = try await connection.query(
                    "SELECT pg_try_advisory_xact_lock(hashtextextended(\(Hex.encode(Array(key)) + record.key), 0))")
                guard try locked.first?.decode(Bool.self, at: 0) == true else { return .idempotencyInFlight }
                if let stored = try await recorded(key, record.key, connection) {
                    return .idempotencyRecorded(stored)
                }
            }
            let session = Array(key)
            let sensitive = change.sensitive
            let path = try stored(after.path, sensitive: sensitive, session: session)
            let values = try sealing.seal(after.values, sensitive: sensitive, session: session)
            let forward = try stored(after.forward, sensitive: sensitive, session: session)
            let loggedAnswers = try change.answers.map { try sealing.seal($0, sensitive: sensitive, session: session) }
            let updated = try await connection.query(
                """
                UPDATE sessions SET rev = rev + 1, status = \(after.status.rawValue), step = \(after.step),
                    path = \(Self.jsonb(path)),
                    "values" = \(Self.jsonb(values)),
                    forward = \(Self.jsonb(forward)),
                    messages = \(Self.jsonb(after.messages)),
                    updated_at = now(), expires_at = to_timestamp(\(after.expiresAt)),
                    completed_at = CASE WHEN \(after.status.rawValue) = 'completed' THEN now() END
                WHERE key = \(key) AND rev = \(expectedRev) AND status = 'active' AND expires_at > now()
                RETURNING rev
                """)
            guard try updated.first?.decode(Int.self, at: 0) == after.rev else { return .lostRace }
            try await connection.query(
                """
                INSERT INTO session_log (session_key, rev, kind, step, answers, outcome, next_step, core_version)
                VALUES (\(key), \(after.rev), \(change.kind), \(change.step),
                        \(loggedAnswers.map(Self.jsonb)), \(change.outcome.map(Self.jsonb)),
                        \(change.nextStep), \(after.core))
                """)
            if let complete = change.complete {
                let completion = try complete(try await log(key, connection))
                let answers = try sealing.seal(completion.answers, sensitive: sensitive, session: session)
                try await connection.query(
                    """
                    INSERT INTO completions (session_key, flow_id, version, core_version, path, answers)
                    VALUES (\(key), \(after.flowId), \(after.version), \(after.core),
                            \(Self.jsonb(.array(completion.path.map(JSONValue.string)))),
                            \(Self.jsonb(answers)))
                    """)
                try await WebhookOutbox.announceCompletion(of: key, connection)
            }
            if let record = change.idempotency {
                try await connection.query(
                    """
                    INSERT INTO session_idempotency (session_key, key, request_sha256, status, response)
                    VALUES (\(key), \(record.key), \(Data(record.requestHash)), \(record.status),
                            \(Data(try recordable(record.body, sensitive: sensitive, key: key, idempotencyKey: record.key))))
                    """)
            }
            return .committed
        }
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
}
