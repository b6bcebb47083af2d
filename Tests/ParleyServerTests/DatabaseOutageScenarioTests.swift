import Foundation
import ParleyPostgres
import Testing

/// Issue 15, "Fail fast": with Postgres stopped, `parley serve` answers every request that
/// needs it with 503 and `Retry-After` within a second, keeps serving cached screens, and is
/// ready again by itself once Postgres is back.
@Suite struct DatabaseOutageScenarioTests {
    @Test func aStoppedDatabaseGets503FastCachedScreensStayAndServiceRecovers() async throws {
        let cluster = try OutageCluster.start()
        defer { cluster.destroy() }
        var configuration = PostgresConfiguration(url: cluster.url)
        configuration.maximumConnections = 2
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        _ = try await Migrator(directory: TestEnvironment.migrations).migrate(on: pool)
        let author = ("Authorization", "Bearer \(try await TestEnvironment.token(.author, pool: pool))")
        let publisher = ("Authorization", "Bearer \(try await TestEnvironment.token(.publish, pool: pool))")
        let server = try ServerProcess(databaseURL: cluster.url)
        defer { server.stop() }
        let client = RawHTTPClient(port: server.port)
        let flow = FlowFixture.uniqueId("outage")
        try #require(
            try client.sendJSON("POST", "/v1/flows", FlowFixture.quickReplies(id: flow), headers: [author]).status
                == 201)
        let release = #"{"version": 1, "channel": "production"}"#
        try #require(
            try client.sendJSON("POST", "/v1/flows/\(flow)/releases", release, headers: [publisher]).status == 201)
        let screen = try client.send("GET", "/v1/screens/\(flow)", headers: [("Parley-Core", "1.2.0")])
        try #require(screen.status == 200, "\(screen)")

        try cluster.stop()
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
                #expect(elapsed < .seconds(1), "\(method) \(target) with the database down took \(elapsed)")
            }
            let cached = try client.send("GET", "/v1/screens/\(flow)", headers: [("Parley-Core", "1.2.0")])
            #expect(cached.status == 200 && cached.body == screen.body, "a cached screen is still served")
        }

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

/// A Postgres cluster of this test's own (`deploy/postgres`), so stopping it disturbs no
/// other test. Output goes through files: the server it starts must not hold a pipe of ours.
struct OutageCluster {
    let directory: String
    let url: String

    static func start() throws -> OutageCluster {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "parley-outage-\(UUID().uuidString.prefix(8))"
        ).path
        let url = try control("start", directory).trimmingCharacters(in: .whitespacesAndNewlines)
        return OutageCluster(directory: directory, url: url)
    }

    func stop() throws { try Self.control("stop", directory) }
    func startAgain() throws { try Self.control("start", directory) }

    func destroy() {
        _ = try? Self.control("stop", directory)
        try? FileManager.default.removeItem(atPath: directory)
    }

    struct Failed: Error, CustomStringConvertible { let description: String }

    /// `deploy/postgres COMMAND DIRECTORY`; its standard output.
    @discardableResult
    static func control(_ command: String, _ directory: String) throws -> String {
        let output = directory + ".\(command).out"
        defer {
            try? FileManager.default.removeItem(atPath: output)
            try? FileManager.default.removeItem(atPath: output + ".err")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", #"deploy/postgres "$1" "$2" >"$3" 2>"$3.err" </dev/null"#, "sh", command, directory, output,
        ]
        process.currentDirectoryURL = TestEnvironment.packageRoot
        try process.run()
        process.waitUntilExit()
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            let errors = (try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? ""
            throw Failed(description: "deploy/postgres \(command): \(errors)")
        }
        return text
    }
}
