import Foundation
import ParleyCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 12 acceptance, live half, at scale: a change through one process reaches a stream held by
/// another, and thousands of idle streams cost little memory and do not slow other requests.
///
/// Latency bounds are checked only when the machine is not overloaded (load average per core
/// below 1): this machine is shared by several builders, and a figure measured while they compile
/// says more about them than about Parley. Every figure is printed either way; every wait has a
/// generous hang guard, so a lost event fails the test whatever the load.
@Suite(.serialized) struct LiveSessionScaleTests {
    @Test func aSayThroughOneProcessReachesAStreamHeldByAnother() async throws {
        try await ServiceHarness.run(servers: 2) { service in
            let agent = try await TestEnvironment.token(.agent, pool: service.pool)
            let flow = try SessionFixture.released(service, prefix: "fanout")
            let session = try service.startSession(flow, on: service.clients[0]).json.sessionId
            let stream = try SessionEventStream(port: service.clients[1].port, session: session)
            _ = try stream.next()
            var p99 = Double.infinity
            for round in 1...2 {
                var latencies: [Double] = []
                for index in 0..<200 {
                    let start = Date()
                    let said = try service.agentEvent(
                        session, ["say": ["text": .string("message \(index)")]], token: agent, on: service.clients[0])
                    try #require(said.status == 200, "\(said)")
                    let event = try stream.next()  // the client's 30 s read timeout is the hang guard
                    latencies.append(Date().timeIntervalSince(start))
                    try #require(event.id == said.json.rev, "event \(event.id) after say at rev \(said.json.rev)")
                }
                p99 = Self.percentile(latencies, 0.99)
                print(
                    "say on process A → stream on process B, round \(round): p50 \(Self.ms(Self.percentile(latencies, 0.5))), "
                        + "p99 \(Self.ms(p99)) over 200 events (POST sent → event read)")
                if p99 < 0.2 { break }
            }
            if let load = Self.overload() {
                print("p99 < 200 ms not asserted: load average \(load) per core")
            } else {
                #expect(p99 < 0.2, "p99 \(Self.ms(p99)) in both rounds")
            }
        }
    }

    @Test func fiveThousandIdleStreamsCostLittleMemoryAndDoNotSlowOtherRequests() async throws {
        let streams = 5_000
        try await ServiceHarness.run(servers: 1) { service in
            let port = service.client.port
            let pid = try #require(service.servers[0].serverPid)
            let flow = try SessionFixture.released(service, prefix: "idle")
            let sessions = try (0..<10).map { _ in try service.startSession(flow).json.sessionId }
            // Warm up the paths the streams take, then measure.
            for session in sessions { _ = try SessionEventStream(port: port, session: session).next() }
            let before = try Self.residentBytes(pid)
            var clients: [TestClient] = []  // each closes its socket when released
            clients.reserveCapacity(streams)
            for index in 0..<streams {
                let client = try TestClient(port: Int(port), timeout: 30)
                try client.send(
                    "GET /v1/sessions/\(sessions[index % sessions.count])/events HTTP/1.1\r\nHost: t\r\n\r\n")
                clients.append(client)
            }
            // The gauge is the event: every stream is open once it reads 5,000.
            var open = 0
            for _ in 0..<600 where open < streams {
                let metrics = try service.client.send("GET", "/metrics").text
                open =
                    metrics.split(separator: "\n").first { $0.hasPrefix("parley_live_streams_open ") }
                    .flatMap { Int($0.split(separator: " ")[1]) } ?? 0
                if open < streams { try await Task.sleep(for: .milliseconds(100)) }
            }
            try #require(open == streams, "only \(open) of \(streams) streams opened")
            let after = try Self.residentBytes(pid)
            let grown = Double(after - before) / 1_048_576
            print(
                "\(streams) idle streams: server RSS \(before / 1_048_576) MB → \(after / 1_048_576) MB (+\(grown) MB)")
            #expect(grown < 50, "RSS grew \(grown) MB")
            #expect(clients.count == streams)

            var latencies: [Double] = []
            for _ in 0..<200 {
                let start = Date()
                let response = try service.client.send("GET", "/v1/sessions/\(sessions[0])")
                latencies.append(Date().timeIntervalSince(start))
                try #require(response.status == 200, "\(response)")
            }
            let p99 = Self.percentile(latencies, 0.99)
            print("GET /v1/sessions/{id} with \(streams) streams open: p99 \(Self.ms(p99)) over 200 requests")
            if let load = Self.overload() {
                print("p99 < 10 ms not asserted: load average \(load) per core")
            } else {
                #expect(p99 < 0.01, "p99 \(Self.ms(p99))")
            }
        }
    }

    /// The load average per core when it is 1 or more (the machine is busy with other work).
    static func overload() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
            let first = text.split(separator: " ").first.flatMap({ Double($0) })
        else { return nil }
        let perCore = first / Double(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        return perCore >= 1 ? (perCore * 100).rounded() / 100 : nil
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

    /// VmRSS of a process, in bytes.
    static func residentBytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}
