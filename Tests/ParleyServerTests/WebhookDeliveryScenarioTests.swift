import Foundation
import ParleyCore
import ParleyServer
import Testing

/// Issue 12 (delivery): completions reach a real receiver that verifies each one with the
/// Standard Webhooks reference library; failures are retried with growing delays, then
/// dead-lettered, visible, and retryable.
@Suite(.timeLimit(.minutes(10))) struct WebhookDeliveryScenarioTests {
    @Test func aStandardWebhooksReceiverVerifiesEveryDeliveryAndRejectsATamperedBody() async throws {
        try await DeliveryHarness.run(.router) { service, _ in
            let receiver = try WebhookReceiver()
            let flow = try SessionFixture.released(service, prefix: "hook")
            let hook = try service.registerWebhook(receiver.url, events: ["session.completed"])
            try receiver.setSecret(hook.secret)
            #expect(hook.secret.hasPrefix("whsec_") && hook.secret.count >= 6 + 32)
            for index in 0..<3 { try service.completeSignup(flow, email: "p\(index)@example.com") }

            let records = try await receiver.waitFor(3)
            #expect(records.count == 3)
            for record in records {
                #expect(record["verified"] == true, "standardwebhooks refused \(record)")
                #expect(record["tamperRejected"] == true, "a tampered body verified: \(record)")
                #expect(record.webhookId.hasPrefix("msg_"))
                let payload = record.deliveredPayload
                #expect(payload["type"] == "session.completed")
                #expect(payload["data"]?["flow"]?.stringValue == flow)
                #expect(payload["data"]?["answers"]?["destination"] == "Lisbon")
                #expect(payload["data"]?["session"] == nil, "the session id is a bearer capability")
            }
            #expect(Set(records.map(\.webhookId)).count == 3)
            let emails = Set(records.compactMap { $0.deliveredPayload["data"]?["answers"]?["email"]?.stringValue })
            #expect(emails == ["p0@example.com", "p1@example.com", "p2@example.com"])

            // The API never shows the secret again; the deliveries are recorded as delivered.
            let listed = try service.client.send("GET", "/v1/webhooks", headers: [ServiceHarness.bearer(service.admin)])
            #expect(listed.status == 200 && !listed.text.contains(hook.secret) && listed.text.contains(hook.id))
            // The receiver records a delivery before it answers, the dispatcher marks it delivered
            // after: wait for the marks (each stays pending under its lease until then).
            try await Self.waitUntil {
                try service.deliveries(hook.id).filter { $0["state"] == "delivered" }.count == 3
            }
            let deliveries = try service.deliveries(hook.id)
            #expect(deliveries.count == 3)
            #expect(deliveries.allSatisfy { $0["state"] == "delivered" && $0["attempts"] == 1 }, "\(deliveries)")
            let metrics = try service.client.send("GET", "/metrics").text
            #expect(metrics.contains(#"parley_webhook_deliveries_total{outcome="delivered"} 3"#), "\(metrics)")
            #expect(metrics.contains("parley_webhook_outbox_oldest_seconds "))
        }
    }

    @Test func fiveHundredThreeTimesThenDeliveredOnTheFourthTryWithGrowingDelays() async throws {
        // A base of 1 s: delays 1, 2 and 4 s, each stretched by up to 25 % jitter.
        try await DeliveryHarness.run(.router, configure: { $0.webhookRetryBaseSeconds = 1 }) { service, _ in
            let receiver = try WebhookReceiver(statuses: [500, 500, 500])
            let flow = try SessionFixture.released(service, prefix: "retry")
            let hook = try service.registerWebhook(receiver.url)
            try receiver.setSecret(hook.secret)
            try service.completeSignup(flow)

            let records = try await receiver.waitFor(4)
            try await Self.waitUntil { try service.deliveries(hook.id).first?["state"] == "delivered" }
            #expect(records.map { $0["status"] } == [500, 500, 500, 200])
            #expect(Set(records.map(\.webhookId)).count == 1, "every retry carries the same webhook-id")
            #expect(records.allSatisfy { $0["verified"] == true })
            let arrivals = records.compactMap { ($0["arrived"]?.numberValue?.description).flatMap(Double.init) }
            let gaps = zip(arrivals.dropFirst(), arrivals).map { $0 - $1 }
            // Each retry waits at least its own delay of the schedule (1, 2, 4 s): a dispatcher
            // that is late, as a loaded machine makes it, only lengthens a gap, and the next delay
            // counts from the late attempt; the gaps' order alone is a race (3.1, 2.5, 4.9 s seen).
            #expect(gaps.count == 3, "\(gaps)")
            for (index, gap) in gaps.enumerated() {
                #expect(gap >= Double(1 << index), "retry \(index + 1) came after \(gap) s: \(gaps)")
            }
            let delivery = try #require(try service.deliveries(hook.id).first)
            #expect(delivery["attempts"] == 4 && delivery["lastStatus"] == 200, "\(delivery)")
        }
    }

    @Test func aReceiverDownPastTheScheduleIsDeadLetteredAndARetryDeliversIt() async throws {
        let shortSchedule: (inout ServiceConfiguration) -> Void = {
            $0.webhookRetryBaseSeconds = 0.1
            $0.webhookMaxAttempts = 3
        }
        try await DeliveryHarness.run(.router, configure: shortSchedule) { service, _ in
            // A port held but not listened on: connections are refused, and no other test's
            // receiver can be given it meanwhile (`LoopbackPort`).
            let reserved = try LoopbackPort(listening: false)
            let port = reserved.port
            let flow = try SessionFixture.released(service, prefix: "dead")
            let hook = try service.registerWebhook("http://127.0.0.1:\(port)/hook")
            try service.completeSignup(flow)

            try await Self.waitUntil { try service.deliveries(hook.id).first?["state"] == "dead" }
            let dead = try #require(try service.deliveries(hook.id).first)
            #expect(dead["attempts"] == 3, "\(dead)")
            #expect(dead["lastError"]?.stringValue?.contains("connect") == true, "\(dead)")
            let deliveryId = try #require(dead["id"]?.stringValue)

            reserved.close()
            let receiver = try WebhookReceiver(port: port)
            try receiver.setSecret(hook.secret)
            let retried = try service.client.send(
                "POST", "/v1/webhooks/\(hook.id)/deliveries/\(deliveryId)/retry",
                headers: [ServiceHarness.bearer(service.admin)])
            #expect(retried.status == 202, "\(retried)")
            let records = try await receiver.waitFor(1)
            #expect(records[0]["verified"] == true && records[0].webhookId == dead["messageId"]?.stringValue)
            try await Self.waitUntil { try service.deliveries(hook.id).first?["state"] == "delivered" }
            let again = try service.client.send(
                "POST", "/v1/webhooks/\(hook.id)/deliveries/\(deliveryId)/retry",
                headers: [ServiceHarness.bearer(service.admin)])
            #expect(again.status == 409, "a delivered delivery is not retried: \(again)")
        }
    }

    @Test func anEndpointAnswering410IsDisabledAndGetsNoFurtherEvents() async throws {
        try await DeliveryHarness.run(.router) { service, _ in
            let receiver = try WebhookReceiver(statuses: [410])
            let flow = try SessionFixture.released(service, prefix: "gone")
            let hook = try service.registerWebhook(receiver.url)
            try receiver.setSecret(hook.secret)
            try service.completeSignup(flow)
            try await Self.waitUntil { try service.deliveries(hook.id).first?["state"] == "dead" }
            let listed = try service.client.send("GET", "/v1/webhooks", headers: [ServiceHarness.bearer(service.admin)])
            let endpoint = try #require(listed.json["items"]?.arrayValue?.first)
            #expect(endpoint["enabled"] == false && endpoint["disabledReason"]?.stringValue?.contains("410") == true)
            try service.completeSignup(flow)
            #expect(try service.deliveries(hook.id).count == 1, "a disabled endpoint gets no new events")
            let deleted = try service.client.send(
                "DELETE", "/v1/webhooks/\(hook.id)", headers: [ServiceHarness.bearer(service.admin)])
            #expect(deleted.status == 204)
            let gone = try service.client.send(
                "GET", "/v1/webhooks/\(hook.id)/deliveries", headers: [ServiceHarness.bearer(service.admin)])
            #expect(gone.status == 404, "\(gone)")
        }
    }

    /// Polls `condition` every 50 ms; fails after `timeout` seconds (a hang guard, not a measurement).
    static func waitUntil(timeout: Double = 60, _ condition: () throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the condition did not hold within \(timeout) s")
        throw SessionFixture.Failure(description: "timed out")
    }
}
