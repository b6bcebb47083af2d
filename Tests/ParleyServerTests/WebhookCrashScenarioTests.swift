import Foundation
import ParleyCore
import Synchronization
import Testing

/// Issue 12 (delivery): at least once through crashes, and exactly one sender per delivery when
/// several processes deliver from one outbox.
@Suite(.timeLimit(.minutes(10)), .offCooperativePool) struct WebhookCrashScenarioTests {
    @Test func killNineMidDeliveryIsDeliveredAfterRestartWithTheSameWebhookId() async throws {
        let arguments = DeliveryHarness.fast + ["--webhook-lease", "2"]
        try await DeliveryHarness.run(arguments: arguments) { service, url in
            // The receiver holds the first request, so the server dies with the delivery in flight.
            let receiver = try WebhookReceiver(holdFirst: 8)
            let flow = try SessionFixture.released(service, prefix: "crash")
            let hook = try service.registerWebhook(receiver.url)
            try receiver.setSecret(hook.secret)
            try service.completeSignup(flow)
            let held = try await receiver.waitFor(1)
            #expect(held[0]["held"] == true)
            service.servers[0].crash()

            let restarted = try ServerProcess(arguments: arguments, databaseURL: url)
            defer { restarted.stop() }
            let records = try await receiver.waitFor(2)
            #expect(records[1].webhookId == records[0].webhookId, "a re-delivery keeps its webhook-id")
            #expect(records[1]["verified"] == true)
            try await WebhookDeliveryScenarioTests.waitUntil {
                try Self.deliveries(hook.id, RawHTTPClient(port: restarted.port), service).first?["state"]
                    == "delivered"
            }
        }
    }

    @Test func aThousandCompletionsWithTwoProcessesDeliveringAreEachDeliveredBySomeOne() async throws {
        try await DeliveryHarness.run(servers: 2) { service, _ in
            let receiver = try WebhookReceiver()
            let flow = FlowFixture.uniqueId("many")
            #expect(try service.postFlow(Self.oneStep(id: flow)).status == 201)
            #expect(try service.release(flow, version: 1).status == 201)
            let hook = try service.registerWebhook(receiver.url, events: ["session.completed"])
            try receiver.setSecret(hook.secret)
            let total = 1_000
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for index in stride(from: worker, to: total, by: 8) {
                    do {
                        let client = service.clients[index % 2]
                        let started = try service.startSession(flow, on: client)
                        let done = try service.answer(started.json, ["name": "n\(index)"], on: client)
                        if done.json["status"] != "completed" { failures.withLock { $0.append("\(done)") } }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0.prefix(3) })")

            let records = try await receiver.waitFor(total, timeout: 120)
            #expect(records.allSatisfy { $0["verified"] == true })
            let names = Set(records.compactMap { $0.deliveredPayload["data"]?["answers"]?["name"]?.stringValue })
            #expect(names.count == total, "every completion delivered")
            var arrivals: [String: [Double]] = [:]
            for record in records {
                let arrived = (record["arrived"]?.numberValue?.description).flatMap(Double.init) ?? 0
                arrivals[record.webhookId, default: []].append(arrived)
            }
            let doubled = arrivals.filter { _, times in
                times.count > 1 && zip(times.dropFirst(), times).contains { $0 - $1 < 1 }
            }
            #expect(doubled.isEmpty, "sent twice within a second: \(doubled.keys.prefix(5))")
            let metrics = service.clients.map { (try? $0.send("GET", "/metrics").text) ?? "" }
            #expect(
                metrics.allSatisfy { $0.contains("parley_webhook_deliveries_total{outcome=\"delivered\"}") },
                "both processes delivered some")
        }
    }

    static func deliveries(_ hook: String, _ client: RawHTTPClient, _ service: ServiceHarness) throws -> [JSONValue] {
        try client.send("GET", "/v1/webhooks/\(hook)/deliveries", headers: [ServiceHarness.bearer(service.admin)])
            .json["items"]?.arrayValue ?? []
    }

    /// One question, then done: two requests per completion.
    static func oneStep(id: String) -> String {
        """
        { "schema": "parley.flow/1", "id": \(FlowFixture.quoted(id)), "title": "One step", "start": "ask",
          "steps": [
            { "id": "ask", "screen": { "id": "ask", "root": { "type": "vstack", "id": "root", "children": [
                { "type": "textField", "id": "name", "properties": { "fieldId": "name", "label": "Name",
                  "validation": [ { "rule": "required", "message": "Required." } ] } },
                { "type": "button", "id": "next", "properties": { "title": "Next", "action": { "type": "submit" } } }
              ] } }, "next": [ { "goto": "done" } ] },
            { "id": "done", "screen": { "id": "done",
              "root": { "type": "text", "id": "thanks", "properties": { "text": "Thanks!" } } }, "next": [] } ],
          "upgrade": { "id": "upgrade",
            "root": { "type": "text", "id": "please", "properties": { "text": "Please update the app." } } } }
        """
    }
}
