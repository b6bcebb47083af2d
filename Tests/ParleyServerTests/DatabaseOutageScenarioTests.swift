import Foundation
import ParleyPostgres
import Testing

/// Issue 15, "Fail fast": with Postgres stopped, `parley serve` answers every request that
/// needs it with 503 and `Retry-After` within a second, keeps serving cached screens, and is
/// ready again by itself once Postgres is back.
@Suite(.timeLimit(.minutes(10)), .offCooperativePool) struct DatabaseOutageScenarioTests {
    @Test func aStoppedDatabaseGets503FastCachedScreensStayAndServiceRecovers() async throws {
        let cluster = try PrivateCluster.start()
        defer { cluster.destroy() }
        var configuration = PostgresConfiguration(url: cluster.url)
        configuration.maximumConnections = 2
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        _ = try await Migrator(directory: TestEnvironment.migrations).migrate(on: pool)
        let author = ("Authorization", "Bearer \(try await TestEnvironment.token(.author, pool: pool))")
        let publisherToken = ("Authorization", "Bearer \(try await TestEnvironment.token(.publish, pool: pool))")
        let flow = FlowFixture.uniqueId("outage")
        do {
            // Published through another process, so no release notification is still on its
            // way to the server under test to drop the screen it is about to cache.
            let publisher = try ServerProcess(databaseURL: cluster.url)
            defer { publisher.stop() }
            let client = RawHTTPClient(port: publisher.port)
            let posted = try client.sendJSON("POST", "/v1/flows", FlowFixture.quickReplies(id: flow), headers: [author])
            try #require(posted.status == 201)
            let release = #"{"version": 1, "channel": "production"}"#
            let released = try client.sendJSON(
                "POST", "/v1/flows/\(flow)/releases", release, headers: [publisherToken])
            try #require(released.status == 201)
        }
        let server = try ServerProcess(databaseURL: cluster.url)
        defer { server.stop() }
        let client = RawHTTPClient(port: server.port)
        let screen = try client.send("GET", "/v1/screens/\(flow)", headers: [("Parley-Core", "1.2.0")])
        try #require(screen.status == 200, "\(screen)")

        try cluster.stop()
        var slowest = Duration.zero
        for round in 0..<10 {
            for (method, target, body) in [
                ("GET", "/readyz", nil), ("POST", "/v1/flows", FlowFixture.quickReplies(id: "\(flow)-\(round)")),
                ("POST", "/v1/sessions", #"{"flow": "\#(flow)"}"#),
            ] {
                let start = ContinuousClock.now
                let response = try client.send(
                    method, target, headers: [author, ("Content-Type", "application/json")],
                    body: body.map { Array($0.utf8) })
                let elapsed = ContinuousClock.now - start
                #expect(response.status == 503 && response.isProblem, "\(method) \(target): \(response)")
                #expect(response.header("Retry-After") != nil, "\(method) \(target) says when to retry")
                // Typically well under a second (the breaker refuses at once); on a loaded 2-core
                // machine a wall-clock second is not a promise a test can hold, so 5 s is a hang
                // guard against the 15 s wait this replaced, and the slowest answer is printed.
                #expect(elapsed < .seconds(5), "\(method) \(target) with the database down took \(elapsed)")
                slowest = max(slowest, elapsed)
            }
            let cached = try client.send("GET", "/v1/screens/\(flow)", headers: [("Parley-Core", "1.2.0")])
            #expect(cached.status == 200 && cached.body == screen.body, "a cached screen is still served: \(cached)")
        }
        print("figure: slowest 503 with the database down: \(slowest)")

        try cluster.startAgain()
        var ready = try client.send("GET", "/readyz")
        let deadline = ContinuousClock.now + .seconds(60)  // hang guard; recovery takes one breaker backoff
        while ready.status != 200, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            ready = try client.send("GET", "/readyz")
        }
        #expect(ready.status == 200, "ready again without a restart: \(ready)")
        let posted = try client.sendJSON(
            "POST", "/v1/flows", FlowFixture.quickReplies(id: "\(flow)-back"), headers: [author])
        #expect(posted.status == 201, "writes work again: \(posted)")
    }
}
