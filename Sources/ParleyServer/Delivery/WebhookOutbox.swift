import Foundation
import ParleyPostgres

/// The statements that put events into the webhook outbox (`webhook_deliveries`). Each runs inside
/// the transaction or statement that makes the event happen, so an event exists exactly when its
/// change committed: one row per event × enabled endpoint subscribed to the event's type.
enum WebhookOutbox {
    /// A data-modifying CTE body for a session change's statement: `session.completed` for the
    /// completion its `completed` CTE just inserted (column `c`, the whole `completions` row).
    /// Sensitive answers stay sealed in the outbox; the worker opens them.
    static let announceCompletions = """
        INSERT INTO webhook_deliveries (webhook_id, session_key, message_id, event_type, payload)
                SELECT w.id, (done.c).session_key, parley_message_id(), 'session.completed',
                       parley_webhook_payload('session.completed', parley_completion_json(done.c))
                FROM completed done JOIN webhooks w ON w.enabled AND 'session.completed' = ANY (w.events)
        """

    /// A data-modifying CTE body for the sweeper's statement: `session.expired` for every row of
    /// its `expired` CTE (flow, version and step, never the session id).
    static let announceExpiries = """
        INSERT INTO webhook_deliveries (webhook_id, message_id, event_type, payload)
                SELECT w.id, parley_message_id(), 'session.expired',
                       parley_webhook_payload('session.expired', jsonb_build_object(
                           'flow', e.flow_id, 'version', e.version, 'step', e.step,
                           'expiredAt', parley_instant(now())))
                FROM expired e JOIN webhooks w ON w.enabled AND 'session.expired' = ANY (w.events)
        """

    /// Queues `session.erased` for the session with this key, just erased in the same transaction:
    /// its flow, version and completion id (what `session.completed` carried as `id`; null when it
    /// never completed), never the session id.
    static func announceErasure(of key: Data, completion: Int?, _ connection: PostgresConnection) async throws {
        try await connection.query(
            """
            INSERT INTO webhook_deliveries (webhook_id, message_id, event_type, payload)
            SELECT w.id, parley_message_id(), 'session.erased',
                   parley_webhook_payload('session.erased', jsonb_build_object(
                       'flow', s.flow_id, 'version', s.version, 'completion', \(completion)::bigint,
                       'erasedAt', parley_instant(s.erased_at)))
            FROM sessions s JOIN webhooks w ON w.enabled AND 'session.erased' = ANY (w.events)
            WHERE s.key = \(key)
            """)
    }
}
