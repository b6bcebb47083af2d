import Synchronization
import Testing

@testable import ParleyHTTP

/// An access-log sink that keeps each batch it is handed.
final class CapturingSink: AccessLogSink {
    let batches = Mutex<[String]>([])

    func write(_ lines: UnsafeRawBufferPointer) {
        let text = String(decoding: lines, as: UTF8.self)
        batches.withLock { $0.append(text) }
    }

    var lines: [String] { batches.withLock { $0.joined().split(separator: "\n").map(String.init) } }

    /// Waits until a batch arrives; the deadline is a hang guard only.
    func waitForBatch() async throws -> Bool {
        for _ in 0..<1000 {
            if !batches.withLock({ $0.isEmpty }) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}

@Suite(.serialized, .timeLimit(.minutes(10))) struct AccessLogTests {
    static func start(_ sink: CapturingSink, _ configure: (inout HTTPServerConfiguration) -> Void) throws -> (
        HTTPServer, Int
    ) {
        var configuration = HTTPServerConfiguration(port: 0)
        configuration.loopThreads = 1
        configuration.accessLogSink = sink
        configure(&configuration)
        let server = try HTTPServer(
            configuration: configuration, responder: LiveServer.router(), logger: .init(label: "a"))
        return (server, try server.start())
    }

    @Test func oneLinePerRequestWithTimeMethodPathStatusBytesDurationAndPeer() async throws {
        let sink = CapturingSink()
        let (server, port) = try Self.start(sink) { $0.accessLogFlushInterval = .seconds(3600) }
        let client = try TestClient(port: port)
        try client.send(.get("/big/42") + .get("/missing"))
        #expect(try client.readResponse().status == 200)
        #expect(try client.readResponse().status == 404)
        #expect(sink.lines.isEmpty, "buffered until shutdown")
        await server.shutdown(deadline: .seconds(2))
        let lines = sink.lines
        #expect(lines.count == 2)
        let pattern = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ GET /big/42 200 42B \d+\.\d{3}ms peer=127\.0\.0\.1:\d+$/#
        #expect(lines.first.map { $0.wholeMatch(of: pattern) != nil } == true, "\(lines)")
        #expect(lines.last?.contains(" GET /missing 404 ") == true)
    }

    @Test func linesAreWrittenOnceTheyHaveWaitedTheFlushInterval() async throws {
        let sink = CapturingSink()
        let (server, port) = try Self.start(sink) { $0.accessLogFlushInterval = .milliseconds(20) }
        let client = try TestClient(port: port)
        try client.send(.get("/healthz"))
        #expect(try client.readResponse().status == 200)
        #expect(try await sink.waitForBatch(), "the line arrives without shutdown or a full buffer")
        #expect(sink.lines.count == 1)
        await server.shutdown(deadline: .seconds(2))
    }

    @Test func aFullBufferIsWrittenInWholeLines() async throws {
        let sink = CapturingSink()
        let (server, port) = try Self.start(sink) {
            $0.accessLogFlushInterval = .seconds(3600)
            $0.accessLogBufferBytes = 300
        }
        let client = try TestClient(port: port)
        try client.send(String(repeating: .get("/healthz"), count: 20))
        for _ in 0..<20 { #expect(try client.readResponse().status == 200) }
        let early = sink.batches.withLock { $0 }
        #expect(early.count >= 2, "flushed by size before shutdown")
        #expect(early.allSatisfy { $0.hasSuffix("\n") && $0.utf8.count < 300 + 200 })
        await server.shutdown(deadline: .seconds(2))
        #expect(sink.lines.count == 20)
    }
}
