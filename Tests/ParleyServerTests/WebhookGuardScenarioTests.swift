import Foundation
import ParleyCore
import ParleyServer
import Testing

/// Issue 12 (delivery): the SSRF guard. Without `--webhook-allow-private` only public https is
/// accepted, judged on the addresses a name resolves to, at registration and again at delivery.
@Suite(.timeLimit(.minutes(10))) struct WebhookGuardScenarioTests {
    /// `DeliveryHarness.fast` without `--webhook-allow-private`: what production runs.
    static func strict(_ service: inout ServiceConfiguration) { service.webhookAllowPrivate = false }

    @Test func privateLoopbackLinkLocalAndNonHTTPSURLsAreRefusedWithAClearReason() async throws {
        try await DeliveryHarness.run(.router, configure: Self.strict) { service, _ in
            let refused: [(url: String, reason: String)] = [
                ("http://10.0.0.1/", "https"),
                ("https://10.0.0.1/", "private"),
                ("https://169.254.169.254/", "link-local"),
                ("https://127.0.0.1:9/", "loopback"),
                ("https://localhost/hook", "localhost resolves to"),
                ("https://[::ffff:127.0.0.1]/", "loopback"),
                ("https://100.64.0.1/", "carrier-grade NAT"),
                ("https://0.0.0.0/", "unspecified"),
                ("ftp://example.com/", "scheme"),
                ("https://user:pw@example.com/", "user information"),
                ("not a url", "printable"),
            ]
            for (url, reason) in refused {
                let response = try service.client.send(
                    "POST", "/v1/webhooks",
                    headers: [ServiceHarness.bearer(service.admin), ("Content-Type", "application/json")],
                    body: CanonicalJSON.encode(["url": .string(url)]))
                #expect(response.status == 422, "\(url): \(response)")
                #expect(response.problemType == "urn:parley:problem:invalid-webhook", "\(url): \(response)")
                #expect(response.json["detail"]?.stringValue?.contains(reason) == true, "\(url): \(response)")
            }
            let unknownEvent = try service.client.send(
                "POST", "/v1/webhooks",
                headers: [ServiceHarness.bearer(service.admin), ("Content-Type", "application/json")],
                body: CanonicalJSON.encode(["url": "https://example.com/", "events": ["session.started"]]))
            #expect(unknownEvent.status == 422, "\(unknownEvent)")
            let asAuthor = try service.client.send(
                "POST", "/v1/webhooks",
                headers: [ServiceHarness.bearer(service.author), ("Content-Type", "application/json")],
                body: CanonicalJSON.encode(["url": "https://example.com/"]))
            #expect(asAuthor.status == 403, "webhooks need the admin scope: \(asAuthor)")
            #expect(try service.deliveries("wh_none").isEmpty)
        }
    }

    @Test func aNameThatResolvesToAPrivateAddressAtDeliveryGetsNoDelivery() async throws {
        try await DeliveryHarness.run(.router, configure: Self.strict) { service, url in
            let receiver = try WebhookReceiver()
            let flow = try SessionFixture.released(service, prefix: "guard")
            // Registered while a (development) server allowed it; the strict server delivers.
            let lenient = try await InProcessServer(.router, databaseURL: url, configure: DeliveryHarness.fastDelivery)
            let hook: (id: String, secret: String)
            do {
                hook = try service.registerWebhook("https://localhost:\(receiver.port)/hook", on: lenient.client)
            } catch {
                await lenient.stop()
                throw error
            }
            await lenient.stop()
            try receiver.setSecret(hook.secret)
            try service.completeSignup(flow)

            try await WebhookDeliveryScenarioTests.waitUntil {
                try service.deliveries(hook.id).first?["lastError"] != nil
            }
            let delivery = try #require(try service.deliveries(hook.id).first)
            let error = delivery["lastError"]?.stringValue ?? ""
            #expect(error.contains("refused") && error.contains("loopback"), "\(delivery)")
            #expect(
                delivery["state"] == "pending" && (delivery["attempts"]?.numberValue?.intValue ?? 0) >= 1, "\(delivery)"
            )
            #expect(receiver.records.isEmpty, "nothing may reach a private address")
        }
    }
}
