import Logging
import Synchronization
import Testing

@testable import ParleyHTTP

/// The server matches each request once and carries the match; middleware keeps the fast path.
@Suite(.serialized, .timeLimit(.minutes(10))) struct RouteMatchTests {
    /// A router that counts how often the server asks it to match.
    final class CountingRouter: HTTPResponder {
        let router: Router
        let matches = Atomic<Int>(0)

        init(_ router: Router) { self.router = router }

        func route(for request: HTTPRequest) -> HTTPRoute {
            matches.add(1, ordering: .relaxed)
            return router.route(for: request)
        }
    }

    /// Appends its name to a header on the way out, so the order of layers shows in the response.
    struct Stamp: HTTPMiddleware {
        let name: String

        func respond(to request: HTTPRequest, context: RequestContext, next: HTTPNext<RequestContext>)
            -> HTTPReply
        {
            let name = name
            return next(request, context).map { Self.stamped($0, name) }
        }

        private static func stamped(_ response: HTTPResponse, _ name: String) -> HTTPResponse {
            var response = response
            let before = response.headers["Layers"].map { $0 + "," } ?? ""
            response.headers.set("Layers", before + name)
            return response
        }
    }

    static func router() -> Router {
        var router = Router()
        router.inline("POST", "/fast/{id}") { request, context in
            .text("\(context.parameters["id"] ?? "-"):\(request.body.count)")
        }
        router.on("POST", "/slow/{id}", maxBodyBytes: 4) { request, context in
            .text("\(context.parameters["id"] ?? "-"):\(request.body.count)")
        }
        return router
    }

    @Test func everyRequestIsMatchedOnceWhetherAnsweredOnOrOffTheLoop() async throws {
        let counting = CountingRouter(Self.router())
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.loopThreads = 1
        var logger = Logger(label: "count")
        logger.logLevel = .critical
        let server = try HTTPServer(configuration: configuration, responder: counting, logger: logger)
        let port = try server.start()
        let client = try TestClient(port: port)
        try client.send("POST /fast/a HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc")
        #expect(try client.readResponse().text == "a:3")
        try client.send("POST /slow/b HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nxy")
        #expect(try client.readResponse().text == "b:2")
        try client.send("POST /slow/c HTTP/1.1\r\nHost: t\r\nContent-Length: 9\r\n\r\n")
        #expect(try client.readResponse().status == 413)  // the route's limit, from the same match
        #expect(counting.matches.load(ordering: .relaxed) == 3)
        await server.shutdown(deadline: .seconds(5))
    }

    @Test func middlewareKeepsTheFastPathAndRunsOutermostFirst() throws {
        let wrapped = Self.router().wrapped(in: Stamp(name: "inner")).wrapped(in: Stamp(name: "outer"))
        let request = try HTTPRequest(method: "POST", target: "/fast/z", body: [1, 2])
        let route = wrapped.route(for: request)
        guard
            case .now(let response) = route.respondInline(
                to: request, context: RequestContext(logger: Logger(label: "t")))
        else { return #expect(Bool(false), "the fast route left the loop") }
        #expect(response.text == "z:2")
        #expect(response.headers["Layers"] == "inner,outer")
    }

    @Test func middlewareWrapsTheOffLoopResponderOfTheMatchedRoute() async throws {
        let wrapped = Self.router().wrapped(in: Stamp(name: "inner")).wrapped(in: Stamp(name: "outer"))
        let request = try HTTPRequest(method: "POST", target: "/slow/y", body: [1])
        let route = wrapped.route(for: request)
        guard case .offLoop = route.respondInline(to: request, context: RequestContext(logger: Logger(label: "t")))
        else { return #expect(Bool(false), "the slow route answered on the loop") }
        #expect(route.maxBodyBytes == 4)
        let response = await route.respond(to: request, context: RequestContext(logger: Logger(label: "t")))
        #expect(response.text == "y:1")
        #expect(response.headers["Layers"] == "inner,outer")
    }
}

extension HTTPResponse {
    fileprivate var text: String { String(decoding: body, as: UTF8.self) }
}
