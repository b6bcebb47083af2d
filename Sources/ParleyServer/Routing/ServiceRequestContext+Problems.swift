import ParleyHTTP
import ParleyPostgres

extension ServiceRequestContext {
    /// How the service's errors read (ParleyHTTP's `HTTPNext` renders them, the one place an
    /// error becomes a response): database failures map to 503 or 400 by SQLSTATE, anything
    /// else is logged with the route's template (never its path: a session id is a bearer
    /// capability) and becomes a bare 500.
    func problem(for error: any Error, in request: HTTPRequest) -> HTTPError? {
        let logger = http.requestLogger
        let route = route.map { "\($0.method) \($0.path)" } ?? operation.rawValue
        switch error {
        case let error as PostgresError
        where error.kind == .connectionFailed || error.kind == .poolTimeout || error.discardsConnection:
            // discardsConnection: the connection broke, or its server was demoted (a failover):
            // the pool has dropped it, and the client's retry finds the new primary.
            logger.error("database unavailable: \(error)")
            return ServiceProblem.unavailable("the database is not reachable; try again shortly")
        case let error as PostgresError where error.sqlState == "42P01":
            // undefined_table: the database has not been migrated (/readyz says so too).
            logger.error("database not migrated: \(error.message)")
            return ServiceProblem.unavailable("the database is not migrated yet; run `parley migrate`")
        case let error as PostgresError where error.sqlState?.hasPrefix("22") == true:
            // Class 22 is "data exception": a value from the request the database cannot hold
            // (bad encoding, out of range). The client's mistake, not the server's: 400, not 500.
            logger.warning("refused a value on \(route): \(error.kind)")
            return ServiceProblem.malformedBody("a value in the request cannot be stored: \(error.message)")
        default:
            logger.error("unexpected error on \(route): \(error)")
            return HTTPError.internalError
        }
    }
}
