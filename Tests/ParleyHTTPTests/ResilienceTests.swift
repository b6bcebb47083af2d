import Foundation
import Glibc
import Testing

@testable import ParleyHTTP

@Suite(.serialized, .timeLimit(.minutes(10))) struct ResilienceTests {
    @Test func slowHeadIs408() async throws {
        let live = try LiveServer.start { $0.headerReadTimeout = .milliseconds(200) }
        let client = try TestClient(port: live.port)
        try client.send("GET /healthz HTTP/1.1\r\nHost:")
        // The client's 5 s read timeout is the hang guard: only the 200 ms header timeout answers.
        let response = try client.readResponse()
        #expect(response.status == 408)
        #expect(client.isClosedByServer())
        await live.stop()
    }

    @Test func stalledBodyIs408() async throws {
        let live = try LiveServer.start { $0.bodyIdleTimeout = .milliseconds(200) }
        let client = try TestClient(port: live.port)
        try client.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc")
        #expect(try client.readResponse().status == 408)
        await live.stop()
    }

    @Test func idleKeepAliveConnectionIsClosed() async throws {
        let live = try LiveServer.start { $0.keepAliveIdleTimeout = .milliseconds(200) }
        let client = try TestClient(port: live.port)
        try client.send(.get("/healthz"))
        #expect(try client.readResponse().status == 200)
        // EOF before the client's 5 s read timeout (a hang guard; the server's limit is 200 ms).
        #expect(client.isClosedByServer())
        await live.stop()
    }

    @Test func portInUseIsAnErrorNotASharedPort() async throws {
        let first = try LiveServer.start()
        var configuration = HTTPServerConfiguration(port: first.port)
        configuration.loopThreads = 1
        let second = try HTTPServer(configuration: configuration, responder: Router(), logger: .init(label: "t"))
        #expect(throws: SocketError.self) { try second.start() }
        await first.stop()
    }

    @Test func connectionLimitRefusesExtraConnections() async throws {
        let live = try LiveServer.start {
            $0.maxConnections = 2
            $0.loopThreads = 1
        }
        let first = try TestClient(port: live.port)
        let second = try TestClient(port: live.port)
        try first.send(.get("/healthz"))
        #expect(try first.readResponse().status == 200)
        try second.send(.get("/healthz"))
        #expect(try second.readResponse().status == 200)
        let third = try TestClient(port: live.port)
        #expect(third.isClosedByServer())
        await live.stop()
    }

    @Test func gracefulShutdownFinishesInFlightRequests() async throws {
        let probe = HandlerProbe()
        let live = try LiveServer.start(router: LiveServer.router(probe: probe))
        let clients = try (0..<8).map { _ in try TestClient(port: live.port, timeout: 20) }
        for client in clients { try client.send(.get("/parked")) }
        let idle = try TestClient(port: live.port)
        try idle.send(.get("/healthz"))
        #expect(try idle.readResponse().status == 200)
        #expect(await probe.waitForEntries(8), "the handlers never started")
        let shutdown = Task { await live.server.shutdown(deadline: .seconds(20)) }
        // Shutdown has begun once the listener refuses connections; only then may handlers end.
        #expect(await Self.refusesConnections(port: live.port), "the listener stayed open")
        probe.release()
        await shutdown.value
        for client in clients {
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "parked")
            #expect(response.header("Connection") == "close")
        }
        #expect(idle.isClosedByServer())
    }

    @Test func shutdownDeadlineClosesStragglers() async throws {
        let probe = HandlerProbe()
        defer { probe.release() }
        let live = try LiveServer.start(router: LiveServer.router(probe: probe))
        let client = try TestClient(port: live.port, timeout: 20)
        try client.send(.get("/parked"))
        #expect(await probe.waitForEntries(1), "the handler never started")
        // The handler stays parked (up to 30 s); shutdown must not wait for it.
        await live.server.shutdown(deadline: .milliseconds(300))
        #expect(probe.entered == 1)
        let received = client.readUntilClosed()
        #expect(received != nil, "the straggler's connection was left open")
        #expect(received?.isEmpty == true, "no response was due: \(String(decoding: received ?? [], as: UTF8.self))")
    }

    /// Whether the listener refuses connections within `timeout` seconds (a hang guard).
    static func refusesConnections(port: Int, timeout: Double = 20) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard (try? TestClient(port: port)) != nil else { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    @Test func thousandSlowClientsDoNotBlockANormalOne() async throws {
        Self.raiseDescriptorLimit(to: 4096)
        // Header and idle timeouts far beyond the test: if tricklers could block a normal
        // client, it would wait for them and hit its own read timeout (the hang guard).
        let live = try LiveServer.start {
            $0.headerReadTimeout = .seconds(120)
            $0.keepAliveIdleTimeout = .seconds(120)
        }
        var idle: [TestClient] = []
        var trickling: [TestClient] = []
        for index in 0..<1000 {
            let client = try TestClient(port: live.port)
            if index % 2 == 0 {
                try client.send("GET /healthz HTTP/1.1\r\nHo")
                trickling.append(client)
            } else {
                idle.append(client)
            }
        }
        for round in 0..<3 {
            for client in trickling { try? client.send("s") }
            let normal = try TestClient(port: live.port, timeout: 30)
            try normal.send(.get("/healthz"))
            #expect(try normal.readResponse().status == 200, "round \(round)")
        }
        // Every trickler is still waiting for its head: nothing was answered or closed. Reading
        // until close must time out (nil) with nothing received: a closed or reset connection
        // returns what it got instead, so a server that dropped the tricklers fails here.
        for client in trickling.prefix(20) {
            client.setTimeout(0.01)
            let closedAfter = client.readUntilClosed()?.count
            #expect(closedAfter == nil, "the server closed a trickling connection after \(closedAfter ?? 0) bytes")
            #expect(!client.hasPartialResponse, "the server answered a head that never ended")
        }
        idle.removeAll()
        trickling.removeAll()
        await live.stop()
    }

    static func raiseDescriptorLimit(to wanted: rlim_t) {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(wanted, limit.rlim_max)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }
}
