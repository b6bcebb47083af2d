import Logging
import Synchronization
import Testing

@testable import ParleyHTTP

/// A log handler that keeps messages so tests can read them.
final class CapturingLogHandler: LogHandler, Sendable {
    let messages = Mutex<[String]>([])
    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .info }
        set {}
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        messages.withLock { $0.append(event.message.description) }
    }
}

@Suite struct AccessLogTests {
    @Test func oneLinePerRequestWithMethodPathStatusBytesAndDuration() async throws {
        let handler = CapturingLogHandler()
        let logger = Logger(label: "access") { _ in handler }
        let server = try HTTPServer(
            configuration: HTTPServerConfiguration(port: 0), responder: LiveServer.router(), logger: logger)
        let port = try server.start()
        let client = try TestClient(port: port)
        try client.send(.get("/big/42") + .get("/missing"))
        #expect(try client.readResponse().status == 200)
        #expect(try client.readResponse().status == 404)
        await server.shutdown(deadline: .seconds(2))
        let lines = handler.messages.withLock { $0 }
        #expect(lines.contains { $0.hasPrefix("GET /big/42 200 42B ") && $0.hasSuffix("ms") })
        #expect(lines.contains { $0.hasPrefix("GET /missing 404 ") })
    }
}
