import Foundation
import Glibc
import Testing

@testable import ParleyHTTP

@Suite(.serialized) struct ResilienceTests {
    @Test func slowHeadIs408() async throws {
        let live = try LiveServer.start { $0.headerReadTimeout = .milliseconds(200) }
        let client = try TestClient(port: live.port)
        try client.send("GET /healthz HTTP/1.1\r\nHost:")
        let start = Date()
        let response = try client.readResponse()
        #expect(response.status == 408)
        #expect(Date().timeIntervalSince(start) < 1.5)
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
        let start = Date()
        #expect(client.isClosedByServer())
        #expect(Date().timeIntervalSince(start) < 1.5)
        await live.stop()
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
        let live = try LiveServer.start()
        let clients = try (0..<8).map { _ in try TestClient(port: live.port) }
        for client in clients { try client.send(.get("/slow/300")) }
        let idle = try TestClient(port: live.port)
        try idle.send(.get("/healthz"))
        #expect(try idle.readResponse().status == 200)
        usleep(50_000)
        let start = Date()
        await live.server.shutdown(deadline: .seconds(5))
        #expect(Date().timeIntervalSince(start) < 2)
        for client in clients {
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "slept")
            #expect(response.header("Connection") == "close")
        }
        #expect(idle.isClosedByServer())
        #expect(throws: (any Error).self) { try TestClient(port: live.port) }
    }

    @Test func shutdownDeadlineClosesStragglers() async throws {
        let live = try LiveServer.start()
        let client = try TestClient(port: live.port)
        try client.send(.get("/slow/3000"))
        usleep(50_000)
        let start = Date()
        await live.server.shutdown(deadline: .milliseconds(300))
        #expect(Date().timeIntervalSince(start) < 1.5)
    }

    @Test func thousandSlowClientsDoNotBlockANormalOne() async throws {
        Self.raiseDescriptorLimit(to: 4096)
        let live = try LiveServer.start {
            $0.headerReadTimeout = .milliseconds(1500)
            $0.keepAliveIdleTimeout = .seconds(30)
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
            let start = Date()
            let normal = try TestClient(port: live.port)
            try normal.send(.get("/healthz"))
            #expect(try normal.readResponse().status == 200, "round \(round)")
            #expect(Date().timeIntervalSince(start) < 0.5, "round \(round)")
        }
        // The header-read timeout then answers every trickler with 408 and closes it.
        usleep(1_700_000)
        for client in trickling.prefix(20) { #expect(try client.readResponse().status == 408) }
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
