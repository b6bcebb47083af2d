import Foundation
import ParleyCore
import ParleyServer
import Testing

/// Issue 12 (delivery): systems that pull read completions oldest first, in JSON pages or NDJSON,
/// and `parley export completions` writes exactly the pull API's NDJSON.
@Suite(.timeLimit(.minutes(10))) struct CompletionFeedScenarioTests {
    @Test func pagesAndNDJSONAreOldestFirstAndTheExportMatchesLineForLine() async throws {
        try await DeliveryHarness.run(.router) { service, url in
            let flow = try SessionFixture.released(service, prefix: "pull")
            for index in 0..<3 { try service.completeSignup(flow, email: "u\(index)@example.com") }
            let admin = [ServiceHarness.bearer(service.admin)]

            let first = try service.client.send("GET", "/v1/flows/\(flow)/completions?limit=2", headers: admin)
            #expect(first.status == 200, "\(first)")
            let items = first.json["items"]?.arrayValue ?? []
            #expect(items.map { $0["answers"]?["email"]?.stringValue } == ["u0@example.com", "u1@example.com"])
            #expect(items.allSatisfy { $0["flow"]?.stringValue == flow && $0["session"] == nil })
            let next = try #require(first.json["next"]?.stringValue)
            let second = try service.client.send(
                "GET", "/v1/flows/\(flow)/completions?limit=2&after=\(next)", headers: admin)
            #expect(
                second.json["items"]?.arrayValue?.map { $0["answers"]?["email"]?.stringValue } == ["u2@example.com"])
            #expect(second.json["next"] == nil)

            let ndjson = try service.client.send(
                "GET", "/v1/flows/\(flow)/completions", headers: admin + [("Accept", "application/x-ndjson")])
            #expect(ndjson.header("Content-Type") == "application/x-ndjson")
            let lines = ndjson.text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 4 && lines.last == "", "three lines, each ending in a newline: \(ndjson.text)")
            #expect(
                lines.dropLast().map { try? JSONParser.parse(Array($0.utf8)) } == items.map(Optional.some) + [
                    second.json["items"]?.arrayValue?.first
                ])

            let export = try ParleyCommand.run(["export", "completions", "--flow", flow, "--database-url", url])
            #expect(export.status == 0, "\(export.stderr)")
            #expect(export.stdout == ndjson.text, "export:\n\(export.stdout)\npull:\n\(ndjson.text)")
            #expect(export.stderr.isEmpty, "no progress line when stderr is not a terminal")
            let since = try ParleyCommand.run([
                "export", "completions", "--flow", flow, "--since", "2999-01-01T00:00:00Z", "--database-url", url,
            ])
            #expect(since.status == 0 && since.stdout.isEmpty, "\(since)")

            let asAuthor = try service.client.send(
                "GET", "/v1/flows/\(flow)/completions", headers: [ServiceHarness.bearer(service.author)])
            #expect(asAuthor.status == 403, "\(asAuthor)")
            let missing = try service.client.send("GET", "/v1/flows/nope/completions", headers: admin)
            #expect(missing.status == 404, "\(missing)")
            let badCursor = try service.client.send("GET", "/v1/flows/\(flow)/completions?after=x", headers: admin)
            #expect(badCursor.status == 400, "\(badCursor)")
        }
    }

    @Test func sensitiveAnswersStaySealedInTheOutboxAndReachTheirConsumersOpened() async throws {
        try await DeliveryHarness.run(.router) { service, url in
            let receiver = try WebhookReceiver()
            let flow = try SensitiveAnswersScenarioTests.released(service, prefix: "sealed")
            let hook = try service.registerWebhook(receiver.url, events: ["session.completed"])
            try receiver.setSecret(hook.secret)
            let email = "secret-\(UUID().uuidString.prefix(8))@example.com"
            try service.completeSignup(flow, email: email)

            let records = try await receiver.waitFor(1)
            #expect(records[0]["verified"] == true)
            #expect(records[0].deliveredPayload["data"]?["answers"]?["email"]?.stringValue == email)
            let stored = try await service.pool.query("SELECT convert_from(payload, 'UTF8') FROM webhook_deliveries")
            let payload = try stored.first?.decode(String.self, at: 0) ?? ""
            #expect(payload.contains("$sealed") && !payload.contains(email), "sealed at rest: \(payload)")

            let ndjson = try service.client.send(
                "GET", "/v1/flows/\(flow)/completions",
                headers: [ServiceHarness.bearer(service.admin), ("Accept", "application/x-ndjson")])
            #expect(ndjson.text.contains(email) && !ndjson.text.contains("$sealed"), "\(ndjson)")
            let export = try ParleyCommand.run(["export", "completions", "--flow", flow, "--database-url", url])
            #expect(export.status == 0 && export.stdout == ndjson.text, "\(export.stderr)")
        }
    }

    @Test func anExpiredSessionIsAnnouncedAsSessionExpired() async throws {
        let expiring: (inout ServiceConfiguration) -> Void = {
            $0.sessionIdleSeconds = 0.5
            $0.sessionSweepSeconds = 0.2
        }
        try await DeliveryHarness.run(.router, configure: expiring) { service, _ in
            let receiver = try WebhookReceiver()
            let flow = try SessionFixture.released(service, prefix: "expire")
            let hook = try service.registerWebhook(receiver.url, events: ["session.expired"])
            try receiver.setSecret(hook.secret)
            let started = try service.startSession(flow)
            #expect(started.status == 201, "\(started)")

            let records = try await receiver.waitFor(1)
            let payload = records[0].deliveredPayload
            #expect(records[0]["verified"] == true)
            #expect(payload["type"] == "session.expired" && payload["data"]?["flow"]?.stringValue == flow)
            #expect(payload["data"]?["step"] == "email" && payload["data"]?["session"] == nil, "\(payload)")
        }
    }
}
