import Foundation
import ParleyPostgres
import Testing

@testable import ParleyServer

/// An attempt's outcome is written only to the delivery it claimed: a row that an operator
/// retried, that was set by hand, or that another claim took meanwhile keeps what they made it.
/// Written blindly, a failed attempt put a row the test had marked delivered back to pending
/// (`PruneScenarioTests` then pruned nothing; it failed that way under load).
@Suite(.timeLimit(.minutes(2))) struct WebhookOutcomeTests {
    @Test func anOutcomeIsDroppedWhenTheDeliveryChangedUnderItsClaim() async throws {
        // A database of its own: `claimDue` takes every due delivery of the database.
        let database = try await IsolatedDatabase.create()
        defer { database.close() }
        let pool = database.pool
        try await pool.query(
            """
            INSERT INTO webhooks (id, url, secret, events, created_by)
            VALUES ('outcomes', 'http://127.0.0.1:9/never', 'whsec_test', ARRAY['session.completed'], 'test')
            """)
        for message in ["by-hand", "retried", "untouched", "reclaimed"] {
            try await pool.query(
                """
                INSERT INTO webhook_deliveries (webhook_id, message_id, event_type, payload)
                VALUES ('outcomes', \(message), 'session.completed', '\\x7b7d'::bytea)
                """)
        }
        let store = WebhookStore(pool: pool)
        let claims = try await store.claimDue(limit: 10, leaseSeconds: 60)
        #expect(claims.count == 4 && claims.allSatisfy { $0.attempt == 1 }, "\(claims.map(\.messageId))")
        func claim(_ message: String) throws -> WebhookStore.Claim {
            try #require(claims.first { $0.messageId == message })
        }

        // Meanwhile: one row marked delivered by hand, one retried by an operator, and one whose
        // lease ran out and which another process claimed again (its second attempt).
        try await pool.query(
            "UPDATE webhook_deliveries SET state = 'delivered', delivered_at = now() WHERE message_id = 'by-hand'")
        #expect(try await store.retry(webhook: "outcomes", delivery: try claim("retried").id) == .scheduled)
        try await pool.query(
            "UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 second' WHERE message_id = 'reclaimed'"
        )
        let second = try await store.claimDue(limit: 10, leaseSeconds: 60)
        #expect(Set(second.map(\.messageId)) == ["retried", "reclaimed"], "\(second.map(\.messageId))")

        try await store.markFailed(try claim("by-hand"), status: nil, error: "refused", retryAfter: 5)
        try await store.markDelivered(try claim("retried"), status: 204)
        try await store.markFailed(
            try claim("untouched"), status: 500, error: "the endpoint answered 500", retryAfter: nil)
        try await store.markDelivered(try claim("reclaimed"), status: 200)

        let rows = try await pool.query(
            "SELECT message_id, state, attempts, last_status FROM webhook_deliveries ORDER BY message_id")
        var states: [String: String] = [:]
        for row in rows {
            let status: Int? = try row.decode(at: 3)
            states[try row.decode(at: 0)] =
                "\(try row.decode(String.self, at: 1)) \(try row.decode(Int.self, at: 2)) \(status.map(String.init) ?? "-")"
        }
        #expect(states["by-hand"] == "delivered 1 -", "a row marked delivered stays delivered")
        #expect(states["retried"] == "pending 1 -", "the retry's own claim decides, not the attempt before it")
        #expect(states["untouched"] == "dead 1 500", "an unchanged row takes its attempt's outcome")
        #expect(states["reclaimed"] == "pending 2 -", "the newer claim decides")
    }
}
