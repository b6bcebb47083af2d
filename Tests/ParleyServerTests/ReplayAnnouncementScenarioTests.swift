import Foundation
import ParleyCore
import ParleyPostgres
import Synchronization
import Testing

/// A change whose notification was lost with its writer (kill -9 between the commit and the
/// notification, issue 27's pipeline) reaches the other processes when its request is replayed:
/// the replaying process drops its older state and notifies the others. Replica B here listens on
/// a database of its own, so it hears of no change: exactly a replica whose writer never notified.
@Suite(.timeLimit(.minutes(5)), .offCooperativePool) struct ReplayAnnouncementScenarioTests {
    @Test func aReplayedChangeRefreshesAReplicaThatNeverHeardOfIt() async throws {
        try await ServiceHarness.run(servers: 1) { service in
            let flow = try SessionFixture.released(service, prefix: "replayed")
            let deaf = try await TestDatabase.freshDatabase()
            let replica = try ServerProcess(environment: ["PARLEY_LISTEN_DATABASE_URL": deaf])
            defer { replica.stop() }
            let other = RawHTTPClient(port: replica.port)

            let started = try service.startSession(flow).json
            let get = { try other.send("GET", "/v1/sessions/\(started.sessionId)").json.rev }
            #expect(try get() == 1, "the replica reads and caches rev 1")
            let key = "replayed-\(UUID().uuidString)"
            let answered = try service.answer(started, ["email": "a@example.com"], key: key)
            try #require(answered.status == 200, "\(answered)")
            #expect(try get() == 1, "the replica never hears of rev 2: the setup of a lost notification")

            // Notifications on the shared database from here on, this session's only.
            let sessionKey = SessionFixture.key(started.sessionId).map { String(format: "%02x", $0) }.joined()
            let heard = Mutex<[String]>([])
            let subscription = try await service.pool.listen(channel: "parley_sessions") { notification in
                if notification.payload.contains(sessionKey) { heard.withLock { $0.append(notification.payload) } }
            }
            defer { subscription.cancel() }

            let replayed = try service.answer(started, ["email": "a@example.com"], key: key, on: other)
            #expect(replayed.status == 200 && replayed.header("Idempotent-Replayed") == "true", "\(replayed)")
            #expect(replayed.json.rev == 2)
            #expect(try get() == 2, "the replaying replica drops the older state it held")
            let deadline = Date().addingTimeInterval(10)
            while heard.withLock({ $0.isEmpty }), Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(heard.withLock { $0 } == ["\(sessionKey):2"], "the others hear of rev 2 again")
        }
    }
}
