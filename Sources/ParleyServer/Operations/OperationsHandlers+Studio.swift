import ParleyHTTP

extension OperationsHandlers {
    /// The studio's views under `/studio/flows/{flow}/…`; any other name is a 404.
    static let studioViews: Set<String> = ["editor", "preview", "try", "graph", "funnel"]

    /// The asset name of ParleyCore's WebAssembly build (docs/webassembly.md).
    static let coreModuleName = "parley-core.wasm"

    /// `GET /`: people who open the server's address land in the studio.
    func rootRedirect(_ request: HTTPRequest, _ requestContext: RequestContext) -> HTTPResponse {
        HTTPResponse(status: HTTPStatus(code: 302), headers: ["Location": "/studio", "Cache-Control": "no-cache"])
    }

    /// `GET /studio`, `/studio/flows/{flow}[/{view}]`: the app shell; the page reads its URL.
    func studioShell(_ request: HTTPRequest, _ requestContext: RequestContext) throws -> HTTPResponse {
        if let view = requestContext.parameters["view"], !Self.studioViews.contains(view) {
            throw ServiceProblem.notFound(
                "the studio has no view \"\(view.prefix(64))\"; try one of "
                    + Self.studioViews.sorted().joined(separator: ", "))
        }
        return StudioSite.shared.response(StudioSite.shared.shell, for: request)
    }

    /// `GET /studio/assets/{asset}`: one embedded file (strong ETag, 304 on a match), or
    /// `parley-core.wasm` when the server was started with one (`--core-module`).
    func studioAsset(_ request: HTTPRequest, _ requestContext: RequestContext) throws -> HTTPResponse {
        let name = try RequestInput.parameter("asset", requestContext)
        if name == Self.coreModuleName {
            guard let coreModule else {
                throw ServiceProblem.notFound(
                    "this server was started without --core-module: the studio and web clients ask the server")
            }
            return StudioSite.shared.response(coreModule, for: request)
        }
        guard let page = StudioSite.shared.asset(name) else {
            throw ServiceProblem.notFound("the studio has no asset \"\(name.prefix(64))\"")
        }
        return StudioSite.shared.response(page, for: request)
    }
}
