import ParleyCore
import ParleyHTTP
import ParleyPostgres

extension Handlers {
    /// `GET /healthz`: the process answers.
    func health(_ request: HTTPRequest, _ requestContext: RequestContext) -> HTTPResponse? {
        .json(#"{"status":"ok"}"#)
    }

    /// `GET /readyz`: the database answers and every migration is applied.
    func ready(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        do {
            let pending = try await context.pendingMigrations()
            guard pending == 0 else {
                throw ServiceProblem.unavailable("\(pending) migration(s) pending; run `parley migrate`")
            }
        } catch let error as PostgresError {
            throw ServiceProblem.unavailable("the database is not reachable: \(error.kind)")
        }
        return .json(#"{"status":"ready"}"#)
    }

    /// `GET /metrics`: Prometheus text.
    func metrics(_ request: HTTPRequest, _ requestContext: RequestContext) -> HTTPResponse? {
        HTTPResponse(
            status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
            body: Array(context.metrics.render().utf8))
    }
}
