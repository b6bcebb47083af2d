import Foundation
import ParleyCore
import Testing

/// `DELETE /v1/sessions/{id}` (issue 18): the answers are gone from every table and from a
/// `pg_dump`, a tombstone stays, the session answers 410, and `session.erased` reaches downstream.
@Suite(.timeLimit(.minutes(10))) struct ErasureScenarioTests {
    @Test func erasureLeavesNoTraceOfTheAnswersAndTellsDownstream() async throws {
        try await DeliveryHarness.run(.router) { service, url in
            let receiver = try WebhookReceiver()
            let hook = try service.registerWebhook(receiver.url, events: ["session.completed", "session.erased"])
            try receiver.setSecret(hook.secret)
            // An endpoint that never answers keeps an undelivered outbox row for the session.
            _ = try service.registerWebhook("http://127.0.0.1:9/never", events: ["session.completed"])
            let flow = try SensitiveAnswersScenarioTests.released(service, prefix: "erase")
            let marker = UUID().uuidString.prefix(8).lowercased()
            let (email, city, keptCity) = ("erase-\(marker)@example.com", "Erased-\(marker)", "Kept-\(marker)")
            let erased = try Self.complete(service, flow, email: email, destination: city)
            _ = try Self.complete(service, flow, email: "kept-\(marker)@example.com", destination: keptCity)
            let completed = try await receiver.waitFor(2)
            let completionId = try #require(
                completed.map(\.deliveredPayload).first {
                    $0["data"]?["answers"]?["destination"]?.stringValue == city
                }?[
                    "data"]?["id"])

            let path = "/v1/sessions/\(erased)"
            #expect(try service.client.send("DELETE", path).status == 401)
            #expect(
                try service.client.send("DELETE", path, headers: [ServiceHarness.bearer(service.author)]).status == 403)
            let deleted = try service.client.send("DELETE", path, headers: [ServiceHarness.bearer(service.admin)])
            #expect(deleted.status == 204, "\(deleted)")

            let gone = try service.client.send("GET", path)
            #expect(gone.status == 410 && gone.json["type"] == "urn:parley:problem:session-erased", "\(gone)")
            let answer = try service.client.sendJSON(
                "POST", "\(path)/answers", #"{"rev": 1, "step": "email", "answers": {"email": "x@example.com"}}"#)
            #expect(answer.status == 410, "\(answer)")
            let again = try service.client.send("DELETE", path, headers: [ServiceHarness.bearer(service.admin)])
            #expect(again.status == 410, "\(again)")
            let unknown = try service.client.send(
                "DELETE", "/v1/sessions/nosuchsession", headers: [ServiceHarness.bearer(service.admin)])
            #expect(unknown.status == 404, "\(unknown)")

            // Downstream is told which completion to erase, and nothing else about the session.
            let events = try await receiver.waitFor(3)
            let notice = try #require(events.map(\.deliveredPayload).first { $0["type"] == "session.erased" })
            #expect(notice["data"]?["completion"] == completionId, "\(notice)")
            #expect(notice["data"]?["flow"]?.stringValue == flow && notice["data"]?["version"] == 1)
            #expect(!"\(notice)".contains(erased) && notice["data"]?["erasedAt"] != nil)

            // The tombstone: flow, version, times, status; no answers.
            let key = SessionFixture.key(erased)
            let tombstone = try #require(
                try await service.pool.query(
                    """
                    SELECT flow_id, status, path::text || "values"::text || forward::text AS answers,
                           completed_at IS NOT NULL AND erased_at IS NOT NULL AS timed
                    FROM sessions WHERE key = \(key)
                    """
                ).first)
            #expect(try tombstone.decode(String.self, column: "flow_id") == flow)
            #expect(try tombstone.decode(String.self, column: "status") == "erased")
            #expect(try tombstone.decode(String.self, column: "answers") == "[]{}[]")
            #expect(try tombstone.decode(Bool.self, column: "timed"))

            // No trace in any table: the dump holds the other session's answers, not these.
            let dump = try SensitiveAnswersScenarioTests.pgDump(url)
            #expect(dump.contains(keptCity), "the dump holds the kept session (the grep can see answers)")
            #expect(!dump.contains(city), "an erased plain answer survives in the dump")
            #expect(!dump.contains(email), "an erased sensitive answer survives in the dump")
            let sealedLeft = try await service.pool.query(
                """
                SELECT (SELECT count(*) FROM session_log WHERE session_key = \(key) AND answers IS NOT NULL)
                     + (SELECT count(*) FROM completions WHERE session_key = \(key))
                     + (SELECT count(*) FROM session_idempotency WHERE session_key = \(key))
                     + (SELECT count(*) FROM webhook_deliveries WHERE session_key = \(key))
                """)
            #expect(try sealedLeft.first?.decode(Int.self, at: 0) == 0, "ciphertexts of the answers are gone too")

            // The log stays append-only for everyone else; maintenance may blank answers, never history.
            await #expect(throws: (any Error).self) {
                try await service.pool.query("UPDATE session_log SET answers = '{}' WHERE session_key = \(key)")
            }
            await #expect(throws: (any Error).self) {
                try await service.pool.withTransaction { connection in
                    try await connection.query("SELECT set_config('parley.history_maintenance', 'on', true)")
                    try await connection.query("UPDATE session_log SET kind = 'answer' WHERE session_key = \(key)")
                }
            }
        }
    }

    /// Completes a sign-up with an `Idempotency-Key` on every answer; returns the session id.
    static func complete(_ service: ServiceHarness, _ flow: String, email: String, destination: String) throws
        -> String
    {
        var snapshot = try service.startSession(flow).json
        let steps: [Answers] = [
            ["email": email], ["purpose": "holiday"], ["destination": destination], ["emailAgain": email],
        ]
        for (index, answers) in steps.enumerated() {
            let answered = try service.answer(snapshot, answers, key: "erase-\(index)")
            guard answered.status == 200 else { throw SessionFixture.Failure(description: "answer: \(answered)") }
            snapshot = answered.json
        }
        guard snapshot["status"] == "completed" else { throw SessionFixture.Failure(description: "\(snapshot)") }
        return snapshot.sessionId
    }
}
