import Logging
import ParleyHTTP
import ParleyPostgres
import Synchronization
import Testing

@testable import ParleyServer

/// The middleware chain of a service route: order, the typed caller, and the fast path.
@Suite(.timeLimit(.minutes(10))) struct ServiceEndpointTests {
    /// What the layers and handlers saw, in order.
    final class Log: Sendable {
        private let entries = Mutex<[String]>([])
        func append(_ entry: String) { entries.withLock { $0.append(entry) } }
        func take() -> [String] {
            entries.withLock { entries in
                defer { entries = [] }; return entries
            }
        }
    }

    /// Records when it is entered and when its reply is finished, on either path.
    struct Trace: HTTPMiddleware {
        let name: String
        let log: Log

        func respond(to request: HTTPRequest, context: ServiceRequestContext, next: HTTPNext<ServiceRequestContext>)
            -> HTTPReply
        {
            log.append("\(name)>")
            let (name, log) = (name, log)
            return next(request, context).map { response in
                log.append("<\(name)")
                return response
            }
        }
    }

    /// The reply's response when it was answered on the loop, else nil.
    static func onLoop(_ reply: HTTPReply) -> HTTPResponse? {
        guard case .now(let response) = reply else { return nil }
        return response
    }

    static let context = RequestContext(logger: Logger(label: "test"))
    /// For errors that are logged on purpose.
    static let quiet: RequestContext = {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return RequestContext(logger: logger)
    }()
    static let screen = ServiceRoute.all.first { $0.operation == .getStartScreen }!
    static let flows = ServiceRoute.all.first { $0.operation == .listFlows }!

    static func authentication(clientKey: String?) -> AuthenticationMiddleware {
        let pool = PostgresPool(configuration: PostgresConfiguration(url: "postgresql://127.0.0.1:1/none"))
        return AuthenticationMiddleware(
            authenticator: Authenticator(access: AccessStore(pool: pool), clientKey: clientKey))
    }

    @Test func layersRunOutermostFirstOnBothPaths() async throws {
        let log = Log()
        let endpoint = ServiceEndpoint(
            route: Self.screen, middleware: [Trace(name: "a", log: log), Trace(name: "b", log: log)],
            handler: { request, _ in
                log.append("handler")
                guard request.query("cached") == nil else { return .now(.text("from memory")) }
                return .offLoop {
                    log.append("off the loop")
                    return .text("read")
                }
            }, maxBodyBytes: 7)
        let cached = try HTTPRequest(method: "GET", target: "/v1/screens/f?cached")
        let route = endpoint.route(for: cached)
        #expect(route.maxBodyBytes == 7)
        #expect(Self.onLoop(route.respondInline(to: cached, context: Self.context))?.status == .ok)
        #expect(log.take() == ["a>", "b>", "handler", "<b", "<a"])
        let request = try HTTPRequest(method: "GET", target: "/v1/screens/f")
        let reply = endpoint.route(for: request).respondInline(to: request, context: Self.context)
        #expect(Self.onLoop(reply) == nil)
        #expect(log.take() == ["a>", "b>", "handler"])
        #expect(try await reply.response().status == .ok)
        #expect(log.take() == ["off the loop", "<b", "<a"])
    }

    @Test func authenticationHandsTheHandlerATypedCaller() async throws {
        let seen = Log()
        let endpoint = ServiceEndpoint(
            route: Self.screen, middleware: [Self.authentication(clientKey: nil)],
            handler: { _, context in
                seen.append(context.caller.name)
                return .now(.text("ok"))
            }, maxBodyBytes: 0)
        _ = await endpoint.respond(to: try HTTPRequest(method: "GET", target: "/v1/screens/f"), context: Self.context)
        #expect(seen.take() == ["client"])
    }

    @Test func tokenRoutesLeaveTheLoopAndRefusalsAreCountedAsProblems() async throws {
        let metrics = RouteMetrics(route: Self.flows)
        let endpoint = ServiceEndpoint(
            route: Self.flows, middleware: [MetricsMiddleware(metrics: metrics), Self.authentication(clientKey: nil)],
            handler: { _, _ in .now(.text("never")) }, maxBodyBytes: 0)
        let request = try HTTPRequest(method: "GET", target: "/v1/flows")
        let reply = endpoint.route(for: request).respondInline(to: request, context: Self.context)
        #expect(Self.onLoop(reply) == nil)
        let response = try await reply.response()
        #expect(response.status.code == 401)
        let counted = metrics.lines().map(\.line).joined(separator: "\n")
        #expect(counted.contains(#"status="401"} 1"#))
    }

    @Test func aWrongClientKeyIsRefusedOnTheLoop() throws {
        let metrics = RouteMetrics(route: Self.screen)
        let endpoint = ServiceEndpoint(
            route: Self.screen,
            middleware: [MetricsMiddleware(metrics: metrics), Self.authentication(clientKey: "k3y")],
            handler: { _, _ in .now(.text("never")) }, maxBodyBytes: 0)
        let request = try HTTPRequest(method: "GET", target: "/v1/screens/f", headers: ["Parley-Client-Key": "nope"])
        let response = Self.onLoop(endpoint.route(for: request).respondInline(to: request, context: Self.context))
        #expect(response?.status.code == 401)
        #expect(metrics.lines().map(\.line).joined().contains(#"status="401"} 1"#))
    }

    @Test func errorsOnEitherPathBecomeTheSameProblemAndRevealNothing() async throws {
        struct Leak: Error { let secret = "password=hunter2" }
        for offLoop in [false, true] {
            let endpoint = ServiceEndpoint(
                route: Self.flows, middleware: [],
                handler: { _, _ in
                    guard offLoop else { throw Leak() }
                    return .offLoop { throw Leak() }
                }, maxBodyBytes: 0)
            let request = try HTTPRequest(method: "GET", target: "/v1/flows")
            let response = await endpoint.respond(to: request, context: Self.quiet)
            #expect(response.status.code == 500)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(!String(decoding: response.body, as: UTF8.self).contains("hunter2"))
        }
    }

    @Test func everyOperationHasExactlyOneRoute() {
        let operations = ServiceRoute.all.map(\.operation)
        #expect(Set(operations).count == operations.count)
        #expect(Set(operations) == Set(ServiceOperation.allCases))
    }
}
