import Foundation
import ParleyCore
import Synchronization
import Testing

/// Issue 16, scale-out: three replicas behind HAProxy, Postgres behind PgBouncer. A release
/// through one replica reaches the others; under load one replica is killed with SIGKILL and
/// no GET fails, and answers retried with their Idempotency-Key count once.
@Suite(.serialized, .timeLimit(.minutes(10)), .offCooperativePool) struct ProxiedScaleOutScenarioTests {
    @Test func threeReplicasBehindHAProxyAndPgBouncerSurviveAKill() async throws {
        let world = try await ProxiedReplicas.start(count: 3)
        defer { world.stop() }
        let service = world.harness
        let (first, others) = (service.clients[1], Array(service.clients[2...]))

        // A release through one replica is served by the other two.
        let id = FlowFixture.uniqueId("px")
        try #require(try service.postFlow(FlowFixture.quickReplies(id: id), on: first).status == 201)
        try #require(try service.release(id, version: 1, on: first).status == 201)
        for client in others { try #require(try service.screen(id, core: "1.2.0", on: client).status == 200) }
        try #require(try service.postFlow(FlowFixture.withDatePicker(id: id), ifMatch: 1, on: first).status == 201)
        let released = try service.release(id, version: 2, on: first)
        try #require(released.status == 201, "\(released)")
        // LISTEN has its own direct connection (PARLEY_LISTEN_DATABASE_URL): through transaction
        // pooling it would lose notifications. The guard is a hang guard; the figure is printed.
        let guardSeconds = 20.0
        let start = Date()
        var lagging = others
        while !lagging.isEmpty, Date().timeIntervalSince(start) < guardSeconds {
            lagging = try lagging.filter {
                try service.screen(id, core: "1.2.0", on: $0).header("Parley-Flow-Version") != "2"
            }
            if !lagging.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        }
        let elapsed = Date().timeIntervalSince(start)
        #expect(lagging.isEmpty, "\(lagging.count) replica(s) still served v1 after \(elapsed) s")
        print("figure: a release reached the other two replicas in \(Int(elapsed * 1000)) ms")

        // Sessions to answer during the load, started before it.
        let signup = try SessionFixture.released(service, prefix: "pxs")
        let sessions = try (0..<24).map { _ in try service.startSession(signup).json }
        try #require(sessions.allSatisfy { !$0.sessionId.isEmpty })

        let load = ProxyLoad(proxy: world.proxy, flow: id)
        let walkers = ProxyLoad.AnswerWalk(service: service, sessions: sessions)
        let threads = DispatchGroup()
        for _ in 0..<3 { load.runGets(in: threads) }
        walkers.run(in: threads, until: load, workers: 2)
        #expect(await load.waitForGets(40), "the load never got going")
        world.replicas[1].crash()
        let atKill = load.gets
        #expect(await load.waitForGets(atKill + 200), "the load stalled after the kill")
        load.stop.store(true, ordering: .relaxed)
        HangGuard.wait(for: threads, "the load threads")

        #expect(load.failures.isEmpty, "GETs failed through HAProxy: \(load.failures.prefix(10))")
        print("figure: \(load.gets) GETs through HAProxy, \(load.gets - atKill) after the kill, none failed")
        let acknowledged = walkers.acknowledged
        #expect(walkers.failures.isEmpty, "answers failed even after retries: \(walkers.failures.prefix(5))")
        #expect(acknowledged.values.reduce(0, +) > 0, "no answer went through")
        for session in sessions {
            let count = acknowledged[session.sessionId] ?? 0
            let key = SessionFixture.key(session.sessionId)
            let logged = try await service.pool.query(
                "SELECT count(*)::bigint FROM session_log WHERE session_key = \(key) AND kind = 'answer'")
            #expect(try logged.first?.decode(Int.self, at: 0) == count, "answers counted once")
            // The log's latest rev is the session's (issue 27).
            let stored = try await service.pool.query("SELECT max(rev) FROM session_log WHERE session_key = \(key)")
            #expect(try stored.first?.decode(Int.self, at: 0) == session.rev + count)
        }
        // Every surviving replica serves each session's stored rev once the session-change
        // notifications have arrived (the event; the guard is a hang guard).
        let survivors = [service.clients[1], service.clients[3]]
        var stale: [String] = []
        let coherenceStart = Date()
        repeat {
            stale = []
            for session in sessions {
                let expected = session.rev + (acknowledged[session.sessionId] ?? 0)
                for replica in survivors {
                    let served = try replica.send("GET", "/v1/sessions/\(session.sessionId)")
                    if served.json.rev != expected {
                        stale.append("\(session.sessionId): \(served.json.rev) ≠ \(expected)")
                    }
                }
            }
            if !stale.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        } while !stale.isEmpty && Date().timeIntervalSince(coherenceStart) < guardSeconds
        #expect(stale.isEmpty, "replicas serve stale sessions: \(stale.prefix(5))")
        print("figure: \(acknowledged.values.reduce(0, +)) answers, \(walkers.retries) retried with their key")

        // A client that lost a response retries the same key on another replica: one change.
        let session = try service.startSession(signup).json
        let key = "lost-\(UUID().uuidString)"
        let firstTry = try service.answer(session, ["email": "a@example.com"], key: key, on: survivors[0])
        let retry = try service.answer(session, ["email": "a@example.com"], key: key, on: survivors[1])
        #expect(firstTry.status == 200 && retry.status == 200 && firstTry.body == retry.body, "\(firstTry) \(retry)")
        let logged = try await service.pool.query(
            "SELECT count(*)::bigint FROM session_log WHERE session_key = \(SessionFixture.key(session.sessionId)) AND kind = 'answer'"
        )
        #expect(try logged.first?.decode(Int.self, at: 0) == 1)
    }
}
