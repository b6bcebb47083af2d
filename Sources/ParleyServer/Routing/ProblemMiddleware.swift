import ParleyHTTP
import ParleyPostgres

/// Turns every error below it into a response: `HTTPError`s render themselves, database
/// failures map to 503 or 400 by SQLSTATE, anything else is logged and becomes a bare 500.
struct ProblemMiddleware: ServiceMiddleware {
    func respond(
        to request: HTTPRequest, context: ServiceRequestContext, next: Next
    ) async throws -> HTTPResponse {
        do { return try await next(request, context) } catch { return Self.response(for: error, context) }
    }

    func respondInline(
        to request: HTTPRequest, context: ServiceRequestContext, next: InlineNext
    ) throws -> HTTPResponse? {
        do { return try next(request, context) } catch { return Self.response(for: error, context) }
    }

    /// The problem document for `error`; what the client may not see goes to the log only.
    static func response(for error: any Error, _ context: ServiceRequestContext) -> HTTPResponse {
        let route = context.route
        let logger = context.http.logger
        switch error {
        case let error as HTTPError:
            return error.response
        case let error as PostgresError
        where error.kind == .connectionFailed || error.kind == .poolTimeout || error.discardsConnection:
            // discardsConnection: the connection broke, or its server was demoted (a failover):
            // the pool has dropped it, and the client's retry finds the new primary.
            logger.error("database unavailable: \(error)")
            return ServiceProblem.unavailable("the database is not reachable; try again shortly").response
        case let error as PostgresError where error.sqlState == "42P01":
            // undefined_table: the database has not been migrated (/readyz says so too).
            logger.error("database not migrated: \(error.message)")
            return ServiceProblem.unavailable("the database is not migrated yet; run `parley migrate`").response
        case let error as PostgresError where error.sqlState?.hasPrefix("22") == true:
            // Class 22 is "data exception": a value from the request the database cannot hold
            // (bad encoding, out of range). The client's mistake, not the server's: 400, not 500.
            logger.warning("refused a value on \(route.method) \(route.path): \(error.kind)")
            return ServiceProblem.malformedBody("a value in the request cannot be stored: \(error.message)").response
        default:
            logger.error("unexpected error on \(route.method) \(route.path): \(error)")
            return HTTPError.internalError.response
        }
    }
}
