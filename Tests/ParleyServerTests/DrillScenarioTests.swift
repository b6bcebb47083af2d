import Foundation
import ParleyCore
import ParleyCrypto
import ParleyPostgres
import ParleyServer
import Synchronization
import Testing

/// Issue 16, drills as tests: real `parley serve` processes on real Postgres, faults injected
/// the way they happen in production, and the promises checked afterwards.
@Suite(.timeLimit(.minutes(10)), .offCooperativePool) struct DrillScenarioTests {
    /// kill -9 while a bundle is being applied: the bundle's transaction is held open inside
    /// Postgres (a row lock the test owns blocks it after its first flow is written), the
    /// server is killed, and nothing of the bundle is stored; applied again, all of it is.
    @Test func killMidBundlePublishStoresAllOrNothing() async throws {
        let pool = try await TestEnvironment.migratedPool()
        defer { pool.shutdown() }
        let publisher = try await TestEnvironment.token(.publish, pool: pool)
        let author = try await TestEnvironment.token(.author, pool: pool)
        let keyId = "drill-\(UUID().uuidString.prefix(8).lowercased())"
        let key = try Ed25519PrivateKey.generate()
        #expect(try await AccessStore(pool: pool).addSigningKey(keyId: keyId, publicKey: key.publicKey))
        let ids = ["k9a", "k9b", "k9c"].map { FlowFixture.uniqueId($0) }
        let bundle = try BundleScenarioTests.bundle(
            [
                FlowFixture.quickReplies(id: ids[0]), FlowFixture.branching(id: ids[1]),
                FlowFixture.quickReplies(id: ids[2]),
            ],
            commit: "drill",
            // A channel of its own: while the test holds the bundle's transaction blocked, that
            // transaction holds its channel's release lock, and a backend waiting on a lock does not
            // notice its client die. On "production" every other suite's releases would queue behind it.
            channel: "drill-\(keyId.suffix(8))")
        let headers = [
            ServiceHarness.bearer(publisher), ("Content-Type", "application/json"),
            ("Parley-Signature", try BundleScenarioTests.signature(bundle, keyId: keyId, key: key)),
        ]
        // No statement deadline: the bundle's statement must wait on our lock until the crash,
        // however long a loaded machine takes to see it waiting.
        let server = try ServerProcess(arguments: ["--database-query-timeout", "0"])
        defer { server.stop() }
        // The second flow exists already (one version), so applying the bundle locks its row.
        let client = RawHTTPClient(port: server.port)
        let first = try client.sendJSON(
            "POST", "/v1/flows", FlowFixture.quickReplies(id: ids[1]), headers: [ServiceHarness.bearer(author)])
        try #require(first.status == 201, "\(first)")

        try await pool.withTransaction { connection in
            let holder: Int = try await connection.query("SELECT pg_backend_pid()").first!.decode(at: 0)
            try await connection.query("SELECT id FROM flows WHERE id = \(ids[1]) FOR UPDATE")
            let publish = Thread.detached {
                _ = try? client.send("POST", "/v1/bundles", headers: headers, body: CanonicalJSON.encode(bundle))
            }
            // The event: the bundle's transaction waits on our lock, its first flow written.
            let blocked = try await Self.poll(timeout: 30) {
                try await pool.query(
                    "SELECT count(*)::bigint FROM pg_stat_activity WHERE \(holder) = ANY(pg_blocking_pids(pid))"
                )
                .first!.decode(Int.self, at: 0) > 0
            }
            try #require(blocked, "the bundle never reached the locked flow")
            server.crash()
            HangGuard.wait(for: publish, "the publishing thread")
        }
        for id in ids {
            let versions = try await pool.query("SELECT count(*)::bigint FROM flow_versions WHERE flow_id = \(id)")
            #expect(try versions.first?.decode(Int.self, at: 0) == (id == ids[1] ? 1 : 0), "\(id): nothing applied")
            let releases = try await pool.query("SELECT count(*)::bigint FROM releases WHERE flow_id = \(id)")
            #expect(try releases.first?.decode(Int.self, at: 0) == 0, "\(id): nothing released")
        }
        let digest = Data(BundleSignature.digest(ofCanonicalBytes: CanonicalJSON.encode(bundle)))
        #expect(
            try await pool.query("SELECT count(*)::bigint FROM bundles WHERE digest = \(digest)").first?
                .decode(Int.self, at: 0) == 0)

        let restarted = try ServerProcess()
        defer { restarted.stop() }
        let again = try RawHTTPClient(port: restarted.port).send(
            "POST", "/v1/bundles", headers: headers, body: CanonicalJSON.encode(bundle))
        #expect(again.status == 201, "\(again)")
        for id in ids {
            let releases = try await pool.query("SELECT count(*)::bigint FROM releases WHERE flow_id = \(id)")
            #expect(try releases.first?.decode(Int.self, at: 0) == 1, "\(id): all applied")
        }
    }

    /// SIGTERM while keep-alive clients are busy: every response that starts arrives whole,
    /// connections end only between responses, and the process exits 0.
    @Test func sigtermUnderKeepAliveLoadCutsNoResponseShort() async throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let responses = Mutex<[Int]>(Array(repeating: 0, count: 4))
        let problems = Mutex<[String]>([])
        let clients = DispatchGroup()
        for index in 0..<4 {
            clients.enter()
            Thread.detachNewThread {
                defer { clients.leave() }
                do {
                    let client = try TestClient(port: Int(server.port), timeout: 20)
                    while true {
                        try client.send("GET /openapi.json HTTP/1.1\r\nHost: drill\r\n\r\n")
                        let response: RawResponse
                        do {
                            response = try client.readResponse()
                        } catch {
                            // Closed between responses is how a drain ends an idle keep-alive connection.
                            if client.hasPartialResponse { problems.withLock { $0.append("cut short: \(error)") } }
                            return
                        }
                        guard response.status == 200, !response.body.isEmpty else {
                            problems.withLock { $0.append("\(response.status)") }
                            return
                        }
                        responses.withLock { $0[index] += 1 }
                        if response.header("Connection") == "close" { return }
                    }
                } catch {
                    problems.withLock { $0.append("\(error)") }
                }
            }
        }
        let busy = try await Self.poll(timeout: 60) { responses.withLock { $0.allSatisfy { $0 >= 5 } } }
        #expect(busy, "the keep-alive clients never got going")
        let status = server.stop(keepingLog: true)
        HangGuard.wait(for: clients, "the keep-alive clients")
        #expect(
            status == 0, "exit status after SIGTERM: \(status.map(String.init) ?? "none")\n\(server.log.suffix(2000))")
        #expect(problems.withLock { $0 }.isEmpty, "\(problems.withLock { $0 })")
    }

    /// Postgres restarted under load: while it is down every write is answered 503 (fast, no
    /// hang, no other error); once it is back the same process serves again; every write
    /// that was acknowledged is stored.
    @Test func postgresRestartedUnderLoad() async throws {
        let instance = try await PrivateInstance.start()
        defer { instance.destroy() }
        let (cluster, service) = (instance.cluster, instance.harness)
        let flow = try SessionFixture.released(service, prefix: "pgr")
        service.pool.shutdown()  // its connections would only break while Postgres is down

        let load = SessionStartLoad(service: service, flow: flow)
        let threads = DispatchGroup()
        for _ in 0..<2 { load.run(in: threads) }
        #expect(try await Self.poll(timeout: 60) { load.acknowledged.count >= 20 }, "no sessions before the stop")
        try cluster.stop()
        let downAt = load.statuses.count
        #expect(try await Self.poll(timeout: 60) { load.statuses.dropFirst(downAt).filter { $0 == 503 }.count >= 5 })
        try cluster.startAgain()
        let upAt = load.acknowledged.count
        #expect(try await Self.poll(timeout: 60) { load.acknowledged.count >= upAt + 20 }, "no recovery")
        load.stop.store(true, ordering: .relaxed)
        HangGuard.wait(for: threads, "the load threads")

        let statuses = load.statuses
        #expect(
            Set(statuses).isSubset(of: [201, 503]),
            "only 201 or 503: \(Dictionary(grouping: statuses) { $0 }.mapValues(\.count))")
        #expect(load.errors.isEmpty, "every request answered: \(load.errors.prefix(5))")
        let check = PostgresPool(configuration: PostgresConfiguration(url: cluster.url))
        defer { check.shutdown() }
        var missing: [String] = []
        for id in load.acknowledged {
            let rows = try await check.query(
                "SELECT count(*)::bigint FROM sessions WHERE key = \(SessionFixture.key(id))")
            if try rows.first?.decode(Int.self, at: 0) != 1 { missing.append(id) }
        }
        #expect(missing.isEmpty, "\(missing.count) of \(load.acknowledged.count) acknowledged sessions lost")
        print(
            "figure: \(load.acknowledged.count) sessions acknowledged, \(statuses.filter { $0 == 503 }.count) answered 503 while Postgres was down"
        )
    }

    /// Waits for `condition` (polled every 10 ms); false after `timeout` seconds, a hang guard.
    static func poll(timeout: Double, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try await condition()
    }
}

extension Thread {
    /// Runs `body` on a new thread; `wait()` on the result blocks until it returned.
    static func detached(_ body: @escaping @Sendable () -> Void) -> DispatchGroup {
        let group = DispatchGroup()
        group.enter()
        Thread.detachNewThread {
            body()
            group.leave()
        }
        return group
    }
}

/// Starts sessions (a write each) on plain threads until ``stop``, keeping every status and
/// the id of every acknowledged (201) session.
final class SessionStartLoad: Sendable {
    let service: ServiceHarness
    let flow: String
    let stop = Atomic<Bool>(false)
    private let state = Mutex<(statuses: [Int], acknowledged: [String], errors: [String])>(([], [], []))

    init(service: ServiceHarness, flow: String) {
        self.service = service
        self.flow = flow
    }

    var statuses: [Int] { state.withLock { $0.statuses } }
    var acknowledged: [String] { state.withLock { $0.acknowledged } }
    var errors: [String] { state.withLock { $0.errors } }

    func run(in group: DispatchGroup) {
        group.enter()
        Thread.detachNewThread { [self] in
            while !stop.load(ordering: .relaxed) {
                do {
                    let response = try service.startSession(flow)
                    state.withLock {
                        $0.statuses.append(response.status)
                        if response.status == 201 { $0.acknowledged.append(response.json.sessionId) }
                    }
                    if response.status != 201 { usleep(5_000) }
                } catch {
                    state.withLock { $0.errors.append("\(error)") }
                }
            }
            group.leave()
        }
    }
}
