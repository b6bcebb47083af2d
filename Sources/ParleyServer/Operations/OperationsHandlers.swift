import ParleyCore
import ParleyHTTP
import ParleyPostgres

/// What operators and tools read: liveness, readiness, metrics, the OpenAPI document, the wire
/// schemas, and the studio's page and assets.
struct OperationsHandlers: ServiceHandler {
    let readiness: MigrationReadiness
    /// Rendered by `GET /metrics`.
    let registry: MetricsRegistry
    /// `/openapi.json`, written once at start-up from ``ServiceRoute/all``.
    let openAPI: [UInt8]
    /// parley-core.wasm, when the server was given one (``ServiceConfiguration/coreModule``).
    let coreModule: StudioSite.Page?
}

extension OperationsHandlers {
    /// `GET /healthz`: the process answers.
    func health(_ request: HTTPRequest, _ requestContext: RequestContext) -> HTTPResponse {
        .json(#"{"status":"ok"}"#)
    }

    /// `GET /readyz`: the database answers and every migration is applied.
    func ready(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        do {
            let pending = try await readiness.pendingMigrations()
            guard pending == 0 else {
                throw ServiceProblem.unavailable("\(pending) migration(s) pending; run `parley migrate`")
            }
        } catch let error as PostgresError {
            throw ServiceProblem.unavailable("the database is not reachable: \(error.kind)")
        }
        return .json(#"{"status":"ready"}"#)
    }

    /// `GET /metrics`: Prometheus text.
    func metrics(_ request: HTTPRequest, _ requestContext: RequestContext) -> HTTPResponse {
        HTTPResponse(
            status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
            body: Array(registry.render().utf8))
    }

    /// `GET /openapi.json`: the document, written once from ``ServiceRoute/all``.
    func openAPIDocument(_ request: HTTPRequest, _ requestContext: RequestContext) -> HTTPResponse {
        .json(openAPI)
    }

    /// `GET /schemas/{name}`: one wire document's JSON Schema.
    func wireSchema(_ request: HTTPRequest, _ requestContext: RequestContext) throws -> HTTPResponse {
        guard let name = requestContext.parameters["name"], let bytes = WireSchemas.files[name] else {
            throw ServiceProblem.notFound("schemas are \(WireSchemas.roots.map { "\($0.name).json" })")
        }
        return .json(bytes)
    }
}
