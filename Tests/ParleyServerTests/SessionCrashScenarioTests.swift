import Foundation
import ParleyCore
import Synchronization
import Testing

/// Issue 15 ("Writes"): no acknowledged session write is lost. Clients walk sessions to completion
/// against a server that is killed with SIGKILL mid-load; every answer that got its 200 (and every
/// completion it announced) is in the tables after the restart.
@Suite(.timeLimit(.minutes(10)), .offCooperativePool) struct SessionCrashScenarioTests {
    /// One acknowledged answer: the session, the rev its 200 carried, and whether it completed.
    struct Acknowledged: Sendable {
        let session: String
        let rev: Int
        let completed: Bool
    }

    @Test func everyAcknowledgedAnswerSurvivesKillNine() async throws {
        try await ServiceHarness.run(servers: 1) { service in
            let flow = try SessionFixture.released(service, prefix: "crash-answers")
            let acked = try await Self.walkUntilKilled(service, flow, clients: 12)

            let restarted = try ServerProcess()
            defer { restarted.stop() }
            let client = RawHTTPClient(port: restarted.port)
            var latest: [String: Acknowledged] = [:]
            for ack in acked where ack.rev > latest[ack.session]?.rev ?? 0 { latest[ack.session] = ack }
            var lost: [String] = []
            for ack in acked {
                let key = SessionFixture.key(ack.session)
                let logged = try await service.pool.query(
                    "SELECT count(*)::bigint FROM session_log WHERE session_key = \(key) AND rev = \(ack.rev)")
                if try logged.first?.decode(Int.self, at: 0) != 1 { lost.append("log rev \(ack.rev)") }
                if ack.completed {
                    let completion = try await service.pool.query(
                        "SELECT count(*)::bigint FROM completions WHERE session_key = \(key)")
                    if try completion.first?.decode(Int.self, at: 0) != 1 { lost.append("completion") }
                }
            }
            for ack in latest.values {
                let current = try client.send("GET", "/v1/sessions/\(ack.session)", headers: [("Parley-Core", "1.2.0")])
                if current.status != 200 || current.json.rev < ack.rev { lost.append("session at \(current.json.rev)") }
            }
            #expect(lost.isEmpty, "acknowledged but not stored: \(lost.prefix(10)) of \(acked.count)")
        }
    }

    /// `clients` clients walking sessions of `flow` to completion until server 0 is killed with
    /// SIGKILL, once at least 400 answers were acknowledged; returns every acknowledged answer.
    /// Expects no failure before the kill and the 400 answers.
    static func walkUntilKilled(_ service: ServiceHarness, _ flow: String, clients count: Int) async throws
        -> [Acknowledged]
    {
        let acknowledged = Mutex<[Acknowledged]>([])
        let failures = Mutex<[String]>([])
        let crashing = Atomic(false)
        let clients = (0..<count).map { worker in
            Background<Int> {
                var walked = 0
                while true {
                    do {
                        try Self.walk(service, flow, worker: worker, walk: walked) { ack in
                            acknowledged.withLock { $0.append(ack) }
                        }
                    } catch {
                        // After the kill every request fails; before it, none may.
                        if !crashing.load(ordering: .sequentiallyConsistent) {
                            failures.withLock { $0.append("\(error)") }
                        }
                        return walked
                    }
                    walked += 1
                }
            }
        }
        for _ in 0..<6_000 where acknowledged.withLock({ $0.count }) < 400 {
            try await Task.sleep(for: .milliseconds(10))
        }
        crashing.store(true, ordering: .sequentiallyConsistent)
        service.servers[0].crash()
        for client in clients { _ = try await client.wait() }
        let acked = acknowledged.withLock { $0 }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0.prefix(3) })")
        #expect(acked.count >= 400, "the clients were answered before the kill")
        return acked
    }

    /// Starts a session and answers it step by step to completion, reporting every 200.
    static func walk(
        _ service: ServiceHarness, _ flow: String, worker: Int, walk: Int,
        _ report: (Acknowledged) -> Void
    ) throws {
        let email = "w\(worker)-\(walk)@example.com"
        var snapshot = try service.startSession(flow).json
        let steps: [Answers] = [
            ["email": email], ["purpose": "holiday"], ["destination": "Lyon"], ["emailAgain": email],
        ]
        for answers in steps {
            let response = try service.answer(snapshot, answers)
            guard response.status == 200 else { throw SessionFixture.Failure(description: "answer: \(response)") }
            snapshot = response.json
            report(
                Acknowledged(
                    session: snapshot.sessionId, rev: snapshot.rev,
                    completed: snapshot["status"]?.stringValue == "completed"))
        }
    }
}
