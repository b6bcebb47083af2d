import Foundation
import Logging
import ParleyHTTP
import ParleyPostgres

/// One API route: authentication by the route's access rule, the handler,
/// problem+json for every error, and per-route metrics. Routes with an inline
/// handler answer from memory on the event loop when they can.
struct RouteResponder: HTTPResponder {
    /// A handler that may block or suspend (database work).
    typealias Handler = @Sendable (HTTPRequest, RequestContext, Caller) async throws -> HTTPResponse
    /// A handler that answers from memory, or returns nil to fall back to ``Handler``.
    typealias InlineHandler = @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse?

    let route: ServiceRoute
    let metrics: RouteMetrics
    let authenticator: Authenticator
    let maxBody: Int?
    let handler: Handler
    let inlineHandler: InlineHandler?

    func maxBodyBytes(for request: HTTPRequest) -> Int? { maxBody }

    func respondInline(to request: HTTPRequest, context: RequestContext) throws -> HTTPResponse? {
        guard let inlineHandler else { return nil }
        let start = ContinuousClock.now
        let response: HTTPResponse
        do {
            switch route.access {
            case .open: break
            case .client: _ = try authenticator.checkClient(request)
            case .anyToken, .scope: return nil
            }
            guard let answer = try inlineHandler(request, context) else { return nil }
            response = answer
        } catch let error as HTTPError {
            response = error.response
        }
        record(response, since: start)
        return response
    }

    func respond(to request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        let start = ContinuousClock.now
        let response: HTTPResponse
        do {
            let caller: Caller
            switch route.access {
            case .open: caller = Caller(name: "anonymous", scopes: [])
            case .client: caller = try authenticator.checkClient(request)
            case .anyToken: caller = try await authenticator.checkToken(request, required: nil)
            case .scope(let scope): caller = try await authenticator.checkToken(request, required: scope)
            }
            response = try await handler(request, context, caller)
        } catch let error as HTTPError {
            response = error.response
        } catch let error as PostgresError
            where error.kind == .connectionFailed || error.kind == .connectionLost
            || error.kind == .poolTimeout
        {
            context.logger.error("database unavailable: \(error)")
            response = ServiceProblem.unavailable("the database is not reachable; try again shortly").response
        } catch let error as PostgresError where error.sqlState == "42P01" {
            // undefined_table: the database has not been migrated (/readyz says so too).
            context.logger.error("database not migrated: \(error.message)")
            response = ServiceProblem.unavailable("the database is not migrated yet; run `parley migrate`").response
        } catch let error as PostgresError where error.sqlState?.hasPrefix("22") == true {
            // Class 22 is "data exception": a value from the request the database cannot hold
            // (bad encoding, out of range). The client's mistake, not the server's: 400, not 500.
            context.logger.warning("refused a value on \(route.method) \(route.path): \(error.kind)")
            response =
                ServiceProblem.malformedBody("a value in the request cannot be stored: \(error.message)").response
        } catch {
            context.logger.error("unexpected error on \(route.method) \(route.path): \(error)")
            response = HTTPError.internalError.response
        }
        record(response, since: start)
        return response
    }

    private func record(_ response: HTTPResponse, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        metrics.record(status: response.status.code, seconds: seconds)
    }
}
