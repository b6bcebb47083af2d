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

    /// Records when it is entered and left, on either path.
    struct Trace: ServiceMiddleware {
        let name: String
        let log: Log

        func respond(to request: HTTPRequest, context: ServiceRequestContext, next: Next) async throws
            -> HTTPResponse
        {
            log.append("\(name)>")
            defer { log.append("<\(name)") }
            return try await next(request, context)
        }

        func respondInline(to request: HTTPRequest, context: ServiceRequestContext, next: InlineNext) throws
            -> HTTPResponse?
        {
            log.append("\(name)>")
            defer { log.append("<\(name)") }
            return try next(request, context)
        }
    }

    static let context = RequestContext(logger: Logger(label: "test"))
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
            handler: { _, _, _ in
                log.append("handler")
                return .text("async")
            },
            inline: { _, _ in
                log.append("inline")
                return .text("inline")
            }, maxBodyBytes: 7)
        let request = try HTTPRequest(method: "GET", target: "/v1/screens/f")
        let route = endpoint.route(for: request)
        #expect(route.maxBodyBytes == 7)
        #expect(try route.respondInline(to: request, context: Self.context)?.status == .ok)
        #expect(log.take() == ["a>", "b>", "inline", "<b", "<a"])
        _ = try await route.respond(to: request, context: Self.context)
        #expect(log.take() == ["a>", "b>", "handler", "<b", "<a"])
    }

    @Test func authenticationHandsTheHandlerATypedCaller() async throws {
        let seen = Log()
        let endpoint = ServiceEndpoint(
            route: Self.screen, middleware: [Self.authentication(clientKey: nil)],
            handler: { _, _, caller in
                seen.append(caller.name)
                return .text("ok")
            }, inline: nil, maxBodyBytes: 0)
        _ = try await endpoint.respond(to: HTTPRequest(method: "GET", target: "/v1/screens/f"), context: Self.context)
        #expect(seen.take() == ["client"])
    }

    @Test func tokenRoutesLeaveTheLoopAndRefusalsAreCountedAsProblems() async throws {
        let metrics = RouteMetrics(route: Self.flows)
        let endpoint = ServiceEndpoint(
            route: Self.flows,
            middleware: [
                MetricsMiddleware(metrics: metrics), ProblemMiddleware(), Self.authentication(clientKey: nil),
            ],
            handler: { _, _, _ in .text("never") }, inline: { _, _ in .text("never inline") }, maxBodyBytes: 0)
        let request = try HTTPRequest(method: "GET", target: "/v1/flows")
        let route = endpoint.route(for: request)
        #expect(try route.respondInline(to: request, context: Self.context) == nil)
        let response = try await route.respond(to: request, context: Self.context)
        #expect(response.status.code == 401)
        let counted = metrics.lines().map(\.line).joined(separator: "\n")
        #expect(counted.contains(#"status="401"} 1"#))
    }

    @Test func aWrongClientKeyIsRefusedOnTheLoop() throws {
        let metrics = RouteMetrics(route: Self.screen)
        let endpoint = ServiceEndpoint(
            route: Self.screen,
            middleware: [
                MetricsMiddleware(metrics: metrics), ProblemMiddleware(), Self.authentication(clientKey: "k3y"),
            ],
            handler: { _, _, _ in .text("never") }, inline: { _, _ in .text("never inline") }, maxBodyBytes: 0)
        let request = try HTTPRequest(method: "GET", target: "/v1/screens/f", headers: ["Parley-Client-Key": "nope"])
        let response = try endpoint.route(for: request).respondInline(to: request, context: Self.context)
        #expect(response?.status.code == 401)
        #expect(metrics.lines().map(\.line).joined().contains(#"status="401"} 1"#))
    }

    @Test func everyOperationHasExactlyOneRoute() {
        let operations = ServiceRoute.all.map(\.operation)
        #expect(Set(operations).count == operations.count)
        #expect(Set(operations) == Set(ServiceOperation.allCases))
    }
}
