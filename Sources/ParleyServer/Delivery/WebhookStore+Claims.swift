import Foundation
import ParleyPostgres

extension WebhookStore {
    /// A delivery a worker holds under its lease.
    struct Claim: Sendable {
        let id: Int
        let messageId: String
        let payload: [UInt8]
        let attempt: Int
        /// When the lease ends (`next_attempt_at` as the claim set it, as text): what tells this
        /// claim's row from the same row retried or claimed again since.
        let lease: String
        let url: String
        let secret: String
        /// The completed session's key, for opening sealed answers; nil for other events.
        let sessionKey: [UInt8]?
    }

    /// Claims up to `limit` due deliveries of enabled endpoints: `FOR UPDATE SKIP LOCKED`, so two
    /// processes never claim one row, and `next_attempt_at` pushed out by the lease, so a row held
    /// by a process that dies becomes due again after `leaseSeconds` (same `message_id`).
    func claimDue(limit: Int, leaseSeconds: Double) async throws -> [Claim] {
        let rows = try await pool.query(
            """
            WITH due AS (
                SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.enabled
                WHERE d.state = 'pending' AND d.next_attempt_at <= now()
                ORDER BY d.next_attempt_at LIMIT \(limit) FOR UPDATE OF d SKIP LOCKED
            )
            UPDATE webhook_deliveries d
            SET attempts = d.attempts + 1, updated_at = now(),
                next_attempt_at = now() + make_interval(secs => \(leaseSeconds))
            FROM due, webhooks w WHERE d.id = due.id AND w.id = d.webhook_id
            RETURNING d.id, d.message_id, d.payload, d.attempts, d.next_attempt_at::text AS lease, d.session_key,
                w.url, w.secret
            """)
        return try rows.map { row in
            let payload: Data = try row.decode(column: "payload")
            let sessionKey: Data? = try row.decode(column: "session_key")
            return Claim(
                id: try row.decode(column: "id"), messageId: try row.decode(column: "message_id"),
                payload: Array(payload), attempt: try row.decode(column: "attempts"),
                lease: try row.decode(column: "lease"),
                url: try row.decode(column: "url"),
                secret: try row.decode(column: "secret"), sessionKey: sessionKey.map { Array($0) })
        }
    }

    /// Records a 2xx, unless the delivery changed under the claim.
    ///
    /// Each outcome is written only while the row is still pending and still holds this claim's
    /// lease (`next_attempt_at` as the claim set it). An operator's retry (due now, attempts
    /// counted afresh), a state set by hand, or another process's claim after this lease ran out
    /// all win over an attempt that was in flight meanwhile: written blindly, its outcome put a
    /// delivered row back to pending, or a retried one back to its old attempt count.
    func markDelivered(_ claim: Claim, status: Int) async throws {
        try await pool.query(
            """
            UPDATE webhook_deliveries SET state = 'delivered', last_status = \(status), last_error = NULL,
                delivered_at = now(), updated_at = now()
            WHERE id = \(claim.id) AND state = 'pending' AND next_attempt_at = \(claim.lease)::timestamptz
            """)
    }

    /// Records a failed attempt: due again after `retryAfter` seconds, or dead when nil; unless the
    /// delivery changed under the claim (``markDelivered(_:status:)``).
    func markFailed(_ claim: Claim, status: Int?, error: String, retryAfter: Double?) async throws {
        try await pool.query(
            """
            UPDATE webhook_deliveries SET last_status = \(status), last_error = \(String(error.prefix(500))),
                updated_at = now(),
                state = CASE WHEN \(retryAfter == nil) THEN 'dead' ELSE 'pending' END,
                next_attempt_at = now() + make_interval(secs => \(retryAfter ?? 0))
            WHERE id = \(claim.id) AND state = 'pending' AND next_attempt_at = \(claim.lease)::timestamptz
            """)
    }

    /// An endpoint answered 410 Gone: it is disabled (no more claims) and this delivery is dead,
    /// unless it changed under the claim (the endpoint is disabled either way: it said so).
    func disableEndpoint(for claim: Claim, reason: String) async throws {
        try await pool.withTransaction { connection in
            try await connection.query(
                """
                UPDATE webhooks SET enabled = false, disabled_reason = \(reason)
                WHERE id = (SELECT webhook_id FROM webhook_deliveries WHERE id = \(claim.id))
                """)
            try await connection.query(
                """
                UPDATE webhook_deliveries SET state = 'dead', last_status = 410, last_error = \(reason),
                    updated_at = now()
                WHERE id = \(claim.id) AND state = 'pending' AND next_attempt_at = \(claim.lease)::timestamptz
                """)
        }
    }

    /// Seconds since the oldest undelivered (pending) event was written; 0 when none.
    func oldestPendingAge() async throws -> Double {
        let rows = try await pool.query(
            """
            SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8
            FROM webhook_deliveries WHERE state = 'pending'
            """)
        return try rows.first?.decode(Double.self, at: 0) ?? 0
    }
}
