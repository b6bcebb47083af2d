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
    /// the row keeps a tombstone (flow, version, times, status `erased`, rev + 1, an `erase` log
    /// row); the log's answers and outcomes are blanked; its completion, idempotency records and
    /// outbox rows (whatever their state: a delivered payload holds the answers too) are deleted;
    /// and `session.erased` is queued for every subscribed webhook, naming the completion so
    /// downstream systems can erase what `session.completed` gave them.
    func erase(_ id: SessionID) async throws -> Erasure {
        let key = Data(id.key)
        return try await pool.withTransaction { connection in
            try await connection.query("SELECT set_config('parley.history_maintenance', 'on', true)")
            let erased = try await connection.query(
                """
                UPDATE sessions SET status = 'erased', rev = rev + 1, path = '[]', "values" = '{}', forward = '[]',
                    messages = '[]', updated_at = now(), erased_at = now()
                WHERE key = \(key) AND status <> 'erased'
                RETURNING rev, step, core_version
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
            try await connection.query(
                """
                INSERT INTO session_log (session_key, rev, kind, step, core_version)
                VALUES (\(key), \(rev), 'erase', \(try row.decode(String.self, column: "step")),
                        \(try row.decode(String.self, column: "core_version")))
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
