import Foundation
import Logging
import ParleyHTTP

/// A live server on an ephemeral port for one test.
struct LiveServer {
    let server: HTTPServer
    let port: Int

    static func start(
        _ configure: (inout HTTPServerConfiguration) -> Void = { _ in }, router: Router = LiveServer.router()
    ) throws -> LiveServer {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.loopThreads = 2
        configure(&configuration)
        var logger = Logger(label: "live")
        logger.logLevel = .critical
        let server = try HTTPServer(configuration: configuration, responder: router, logger: logger)
        return LiveServer(server: server, port: try server.start())
    }

    func stop() async { await server.shutdown(deadline: .seconds(5)) }

    /// Routes the live tests share.
    /// `/held` blocks its thread and `/parked` suspends, each until `probe` is released; both
    /// tell `probe` they started, so a test knows when they are in flight.
    static func router(probe: HandlerProbe = HandlerProbe()) -> Router {
        var router = Router()
        router.on("GET", "/held") { _, _ in
            probe.enter()
            probe.blockUntilReleased()
            return .text("held")
        }
        router.on("GET", "/parked") { _, _ in
            probe.enter()
            await probe.parkUntilReleased()
            return .text("parked")
        }
        router.inline("GET", "/healthz") { _, _ in .json(#"{"status":"ok"}"#) }
        router.inline("POST", "/echo") { request, _ in HTTPResponse(body: request.body) }
        router.inline("POST", "/small", maxBodyBytes: 8) { request, _ in HTTPResponse(body: request.body) }
        router.on("GET", "/slow/{ms}") { _, context in
            try await Task.sleep(for: .milliseconds(context.parameters.integer("ms") ?? 100))
            return .text("slept")
        }
        router.on("GET", "/blocking") { _, _ in
            usleep(600_000)  // a handler that blocks its thread, like a libpq call
            return .text("blocked")
        }
        router.inline("GET", "/big/{n}") { _, context in
            HTTPResponse(body: [UInt8](repeating: 120, count: context.parameters.integer("n") ?? 0))
        }
        router.on("GET", "/fail") { _, _ in throw CancellationError() }
        return router
    }
}

extension String {
    static func get(_ path: String, _ extra: String = "") -> String {
        "GET \(path) HTTP/1.1\r\nHost: test\r\n\(extra)\r\n"
    }
}
