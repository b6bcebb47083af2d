import Foundation
import ParleyCore
import ParleyServer
import Testing

/// Issue 11: two writers can never both win a rev, and a retried request counts once.
@Suite(.timeLimit(.minutes(10))) struct SessionRetryScenarioTests {
    @Test func fiftyClientsRacingOneRevYieldOneWinner() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try SessionFixture.released(service, prefix: "race")
            let snapshot = try service.advance(try service.startSession(id).json, ["email": "a@example.com"])
            let results = ConcurrencyScenarioTests.concurrently(50) { index in
                try service.answer(snapshot, ["purpose": index.isMultiple(of: 2) ? "work" : "holiday"])
            }
            let responses = try results.map { try $0.get() }
            let winners = responses.filter { $0.status == 200 }
            #expect(winners.count == 1, "\(responses.map(\.status))")
            #expect(responses.filter { $0.status == 409 }.count == 49, "\(responses.map(\.status))")
            let winner = try #require(winners.first)
            for loser in responses where loser.status == 409 {
                #expect(loser.problemType == "urn:parley:problem:stale-rev", "\(loser)")
                #expect(loser.json["snapshot"] == winner.json.snapshot, "every loser sees the winner's snapshot")
            }
            let key = SessionFixture.key(snapshot.sessionId)
            let rows = try await service.pool.query(
                "SELECT count(*)::bigint FROM session_log WHERE session_key = \(key) AND rev = 3")
            #expect(try rows.first?.decode(Int.self, at: 0) == 1)
        }
    }

    @Test func aRetriedIdempotencyKeyChangesStateOnce() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try SessionFixture.released(service, prefix: "idem")
            let snapshot = try service.startSession(id).json
            let key = "retry-\(UUID().uuidString)"
            let responses = try (0..<5).map { _ in try service.answer(snapshot, ["email": "a@example.com"], key: key) }
            #expect(responses.allSatisfy { $0.status == 200 }, "\(responses)")
            #expect(Set(responses.map(\.body)).count == 1, "5 identical bodies")
            #expect(responses[0].json.rev == 2)
            let current = try service.client.send("GET", "/v1/sessions/\(snapshot.sessionId)")
            #expect(current.json.rev == 2 && current.json.step == "purpose", "one state change")
            let sessionKey = SessionFixture.key(snapshot.sessionId)
            let logged = try await service.pool.query(
                "SELECT count(*)::bigint FROM session_log WHERE session_key = \(sessionKey) AND kind = 'answer'")
            #expect(try logged.first?.decode(Int.self, at: 0) == 1)

            let reused = try service.answer(snapshot, ["email": "b@example.com"], key: key)
            #expect(reused.status == 422 && reused.problemType == "urn:parley:problem:idempotency-key-reused")
            let malformed = try service.answer(
                current.json, ["purpose": "work"], key: String(repeating: "k", count: 300))
            #expect(malformed.status == 400 && malformed.isProblem, "\(malformed)")
        }
    }
}
