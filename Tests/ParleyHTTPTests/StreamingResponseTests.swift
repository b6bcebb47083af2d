import Foundation
import Glibc
import ParleyHTTP
import Synchronization
import Testing

/// Streaming responses over real sockets: chunks pushed from any thread are flushed one by one,
/// and a stream ends (telling its producer) when it finishes, the client leaves, the reader falls
/// behind or the server shuts down.
@Suite(.serialized, .timeLimit(.minutes(10))) struct StreamingResponseTests {
    /// The streams the `/stream` route opened, with a flag per stream set when it ended.
    final class Streams: Sendable {
        private let state = Mutex<[(stream: ResponseStream, ended: Bool)]>([])
        let maxQueuedBytes: Int

        init(maxQueuedBytes: Int = 64 * 1024) { self.maxQueuedBytes = maxQueuedBytes }

        func open() -> ResponseStream {
            let stream = ResponseStream(maxQueuedBytes: maxQueuedBytes, heartbeat: Array(":\n\n".utf8))
            let index = state.withLock { streams in
                streams.append((stream, false))
                return streams.count - 1
            }
            stream.onEnd { [self] in state.withLock { $0[index].ended = true } }
            return stream
        }

        /// The `index`th stream once opened (hang guard: 30 s).
        func stream(_ index: Int) async -> ResponseStream? {
            for _ in 0..<15_000 {
                if let stream = state.withLock({ $0.count > index ? $0[index].stream : nil }) { return stream }
                try? await Task.sleep(for: .milliseconds(2))
            }
            return nil
        }

        /// Waits until the `index`th stream ended (hang guard: 30 s).
        func waitUntilEnded(_ index: Int) async -> Bool {
            for _ in 0..<15_000 {
                if state.withLock({ $0.count > index && $0[index].ended }) { return true }
                try? await Task.sleep(for: .milliseconds(2))
            }
            return false
        }
    }

    static func start(_ streams: Streams, heartbeat: Duration = .seconds(15)) throws -> LiveServer {
        var router = LiveServer.router()
        router.on("GET", "/stream") { _, _ in .streaming(streams.open(), contentType: "text/event-stream") }
        return try LiveServer.start({ $0.streamHeartbeatInterval = heartbeat }, router: router)
    }

    @Test func chunksFromAnotherThreadArriveOneByOneThenFinishCloses() async throws {
        let streams = Streams()
        let live = try Self.start(streams)
        let client = try TestClient(port: live.port, timeout: 30)
        try client.send(.get("/stream"))
        let head = try client.readStreamHead()
        #expect(head.status == 200)
        #expect(head.header("Content-Type") == "text/event-stream")
        #expect(head.header("Content-Length") == nil)
        let stream = try #require(await streams.stream(0))
        for index in 0..<3 {
            // Each event is sent only after the previous one was read: every chunk is flushed alone.
            Thread { stream.send(Array("data: \(index)\n\n".utf8)) }.start()
            #expect(try client.read(through: "\n\n") == "data: \(index)\n\n")
        }
        stream.finish()
        #expect(client.readUntilClosed() == [])
        #expect(await streams.waitUntilEnded(0))
        await live.stop()
    }

    @Test func aClientThatLeavesEndsItsStream() async throws {
        let streams = Streams()
        let live = try Self.start(streams)
        var client: TestClient? = try TestClient(port: live.port, timeout: 30)
        try client?.send(.get("/stream"))
        _ = try client?.readStreamHead()
        let stream = try #require(await streams.stream(0))
        client = nil  // closes the socket
        #expect(await streams.waitUntilEnded(0), "the server never noticed the client left")
        #expect(!stream.send(Array("data: late\n\n".utf8)))
        await live.stop()
    }

    @Test func aReaderThatFallsTooFarBehindIsCutOffNotBuffered() async throws {
        let streams = Streams(maxQueuedBytes: 256 * 1024)
        let live = try Self.start(streams)
        let client = try TestClient(port: live.port, timeout: 30)
        try client.send(.get("/stream"))
        _ = try client.readStreamHead()
        let stream = try #require(await streams.stream(0))
        // The client reads nothing: 64 MB cannot fit in socket buffers plus a 256 KiB queue.
        let chunk = [UInt8](repeating: 120, count: 64 * 1024)
        var accepted = 0
        for _ in 0..<1024 where stream.send(chunk) { accepted += 1 }
        #expect(accepted < 1024)
        #expect(await streams.waitUntilEnded(0))
        await live.stop()
    }

    @Test func aSilentStreamGetsHeartbeats() async throws {
        let streams = Streams()
        let live = try Self.start(streams, heartbeat: .milliseconds(50))
        let client = try TestClient(port: live.port, timeout: 30)
        try client.send(.get("/stream"))
        _ = try client.readStreamHead()
        #expect(try client.read(through: "\n\n") == ":\n\n")
        #expect(try client.read(through: "\n\n") == ":\n\n")
        await live.stop()
    }

    @Test func shutdownEndsEveryStreamAfterWhatItAlreadySent() async throws {
        let streams = Streams()
        let live = try Self.start(streams)
        let clients = try (0..<3).map { _ in try TestClient(port: live.port, timeout: 30) }
        for client in clients { try client.send(.get("/stream")) }
        for client in clients { _ = try client.readStreamHead() }
        for index in 0..<3 { _ = try #require(await streams.stream(index)).send(Array("data: last\n\n".utf8)) }
        await live.server.shutdown(deadline: .seconds(30))
        for (index, client) in clients.enumerated() {
            #expect(client.readUntilClosed().map { String(decoding: $0, as: UTF8.self) } == "data: last\n\n")
            #expect(await streams.waitUntilEnded(index))
        }
    }
}
