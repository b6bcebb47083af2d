import Foundation
import ParleyPostgres

extension SessionStore {
    /// What an erasure came to.
    enum Erasure: Sendable {
        /// Erased now: the tombstone's new rev.
        case erased(rev: Int)
        /// Erased before: nothing left to erase.
        case alreadyErased
        /// No session has this key.
        case unknown
    }

    /// Erases a session's answers everywhere they are stored (issue 18), in one transaction:
    /// the row keeps a tombstone (flow, version, times, status `erased`, the log's latest rev + 1
    /// with an `erase` log row); the log's answers and outcomes are blanked; its completion, idempotency records and
    /// outbox rows (whatever their state: a delivered payload holds the answers too) are deleted;
    /// and `session.erased` is queued for every subscribed webhook, naming the completion so
    /// downstream systems can erase what `session.completed` gave them.
    func erase(_ id: SessionID) async throws -> Erasure {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await eraseOnce(Data(id.key.bytes))
            } catch let error as PostgresError where error.kind == .uniqueViolation && attempt < 5 {
                continue  // an answer took the rev the `erase` row wanted: erase on top of it
            }
        }
    }

    /// One attempt: the `erase` row takes the rev after the log's latest, guarded by the log's
    /// key like any change, so an answer appended meanwhile fails the attempt instead of following
    /// the erasure.
    private func eraseOnce(_ key: Data) async throws -> Erasure {
        try await pool.withTransaction { connection in
            try await connection.query("SELECT set_config('parley.history_maintenance', 'on', true)")
            let erased = try await connection.query(
                """
                WITH latest AS (
                    SELECT rev, month, coalesce(next_step, step) AS here, depth FROM session_log
                    WHERE session_key = \(key) ORDER BY rev DESC LIMIT 1
                ), logged AS (
                    INSERT INTO session_log (session_key, rev, month, kind, step, core_version, depth)
                    SELECT \(key), latest.rev + 1, latest.month, 'erase', latest.here, s.core_version, latest.depth
                    FROM latest, sessions s WHERE s.key = \(key) AND s.status <> 'erased'
                    RETURNING rev, step
                )
                UPDATE sessions SET status = 'erased', rev = logged.rev, step = logged.step, path = '[]',
                    "values" = '{}', forward = '[]', messages = '[]', updated_at = now(), erased_at = now()
                FROM logged WHERE key = \(key)
                RETURNING logged.rev
                """)
            guard let row = erased.first else {
                let found = try await connection.query("SELECT 1 FROM sessions WHERE key = \(key)")
                return found.isEmpty ? .unknown : .alreadyErased
            }
            let rev: Int = try row.decode(column: "rev")
            try await connection.query(
                """
                UPDATE session_log SET answers = NULL, outcome = NULL
                WHERE session_key = \(key) AND (answers IS NOT NULL OR outcome IS NOT NULL)
                """)
            let completion = try await connection.query(
                "DELETE FROM completions WHERE session_key = \(key) RETURNING id")
            try await connection.query("DELETE FROM webhook_deliveries WHERE session_key = \(key)")
            try await connection.query("DELETE FROM session_idempotency WHERE session_key = \(key)")
            try await WebhookOutbox.announceErasure(
                of: key, completion: try completion.first?.decode(Int.self, column: "id"), connection)
            return .erased(rev: rev)
        }
    }
}
