import Foundation
import ParleyCore
import ParleyPostgres

/// Webhook endpoints and their deliveries (DESIGN.md "Delivery"). Secrets are read only by the
/// delivery workers; nothing the API returns carries one after creation.
struct WebhookStore: Sendable {
    let pool: PostgresPool

    /// An endpoint as the API lists it (no secret).
    struct Endpoint: Sendable {
        let id: String
        let url: String
        let events: [String]
        let disabledReason: String?
        let createdAt: String
        let createdBy: String

        var json: JSONValue {
            var object = JSONObject()
            object["id"] = .string(id)
            object["url"] = .string(url)
            object["events"] = .array(events.map(JSONValue.string))
            object["enabled"] = .bool(disabledReason == nil)
            if let disabledReason { object["disabledReason"] = .string(disabledReason) }
            object["createdAt"] = .string(createdAt)
            object["createdBy"] = .string(createdBy)
            return .object(object)
        }
    }

    private static let endpointColumns =
        "id, url, events, disabled_reason, parley_instant(created_at) AS created, created_by"

    /// Stores a new endpoint; nil when `limit` endpoints exist already.
    func create(id: String, url: String, secret: String, events: [String], by author: String, limit: Int)
        async throws -> Endpoint?
    {
        let rows = try await pool.query(
            """
            INSERT INTO webhooks (id, url, secret, events, created_by)
            SELECT \(id), \(url), \(secret), \(events), \(author)
            WHERE (SELECT count(*) FROM webhooks) < \(limit)
            RETURNING \(unsafeRaw: Self.endpointColumns)
            """)
        return try rows.first.map(Self.endpoint)
    }

    /// Every endpoint, oldest first.
    func list() async throws -> [Endpoint] {
        try await pool.query("SELECT \(unsafeRaw: Self.endpointColumns) FROM webhooks ORDER BY created_at, id")
            .map(Self.endpoint)
    }

    /// Deletes an endpoint and its deliveries; false when there is none.
    func delete(id: String) async throws -> Bool {
        !(try await pool.query("DELETE FROM webhooks WHERE id = \(id) RETURNING id")).isEmpty
    }

    /// Whether the endpoint exists.
    func exists(id: String) async throws -> Bool {
        !(try await pool.query("SELECT 1 FROM webhooks WHERE id = \(id)")).isEmpty
    }

    /// A page of an endpoint's deliveries, newest first, before the delivery `before` when given.
    func deliveries(webhook: String, before: Int?, limit: Int) async throws -> [JSONValue] {
        let rows = try await pool.query(
            """
            SELECT id, message_id, event_type, state, attempts, last_status, last_error,
                   parley_instant(next_attempt_at) AS next_at, parley_instant(created_at) AS created,
                   parley_instant(delivered_at) AS delivered
            FROM webhook_deliveries WHERE webhook_id = \(webhook) AND id < \(before ?? Int.max)
            ORDER BY id DESC LIMIT \(limit)
            """)
        return try rows.map { row in
            var object = JSONObject()
            object["id"] = .string(String(try row.decode(Int.self, column: "id")))
            object["messageId"] = .string(try row.decode(column: "message_id"))
            object["event"] = .string(try row.decode(column: "event_type"))
            let state: String = try row.decode(column: "state")
            object["state"] = .string(state)
            object["attempts"] = .number(JSONNumber(try row.decode(Int.self, column: "attempts")))
            if let status: Int = try row.decode(column: "last_status") {
                object["lastStatus"] = .number(JSONNumber(status))
            }
            if let error: String = try row.decode(column: "last_error") { object["lastError"] = .string(error) }
            if state == "pending" { object["nextAttemptAt"] = .string(try row.decode(column: "next_at")) }
            object["createdAt"] = .string(try row.decode(column: "created"))
            if let delivered: String = try row.decode(column: "delivered") {
                object["deliveredAt"] = .string(delivered)
            }
            return .object(object)
        }
    }

    /// What a retry request came to.
    enum RetryResult: Sendable {
        case scheduled, alreadyDelivered, missing
    }

    /// Makes a dead or pending delivery due now, its attempts counted afresh.
    func retry(webhook: String, delivery: Int) async throws -> RetryResult {
        let rows = try await pool.query(
            """
            WITH target AS (
                SELECT id, state FROM webhook_deliveries WHERE webhook_id = \(webhook) AND id = \(delivery)
            ), retried AS (
                UPDATE webhook_deliveries d
                SET state = 'pending', next_attempt_at = now(), attempts = 0, updated_at = now()
                FROM target WHERE d.id = target.id AND target.state IN ('pending', 'dead') RETURNING d.id
            )
            SELECT target.state, (SELECT count(*) FROM retried)::bigint AS n FROM target
            """)
        guard let row = rows.first else { return .missing }
        return try row.decode(Int.self, column: "n") > 0 ? .scheduled : .alreadyDelivered
    }

    private static func endpoint(_ row: PostgresRow) throws -> Endpoint {
        Endpoint(
            id: try row.decode(column: "id"), url: try row.decode(column: "url"),
            events: try row.decode(column: "events"), disabledReason: try row.decode(column: "disabled_reason"),
            createdAt: try row.decode(column: "created"), createdBy: try row.decode(column: "created_by"))
    }
}
