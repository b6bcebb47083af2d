import ParleyHTTP

/// One route of the service as the server sees it: its handler behind the service's
/// middleware, composed once at start-up, and its body limit. A class, so handing it around as
/// `any HTTPResponder` never allocates.
final class ServiceEndpoint: HTTPResponder {
    /// A handler of the service: answers now from memory or says what must run off the loop.
    typealias Handler = InlineHandler<ServiceRequestContext>

    let route: ServiceRoute
    let maxBodyBytes: Int
    /// Whether its off-loop work runs on the request's event loop (``HTTPRoute/runsOnLoop``).
    let runsOnLoop: Bool
    /// Through an ``HTTPNext``: its off-loop work never throws, so the router's layers hand it
    /// on without wrapping it again (``HTTPRoute/rendersErrors``).
    private let handler: InlineHandler<RequestContext>

    /// `handler` behind `middleware`, outermost first. `handlerRendersErrors`: `handler`'s off-loop
    /// work never throws (it renders its errors itself, as the service's handlers do), so the
    /// innermost layer does not wrap it to render them.
    init(
        route: ServiceRoute, middleware: [any HTTPMiddleware<ServiceRequestContext>], handler: @escaping Handler,
        maxBodyBytes: Int, runsOnLoop: Bool = false, handlerRendersErrors: Bool = false
    ) {
        self.route = route
        self.maxBodyBytes = maxBodyBytes
        self.runsOnLoop = runsOnLoop
        // The service's context starts here, so even the outermost layer's errors read as the
        // service's problems.
        let (composed, rendersErrors) = HTTPMiddlewareChain.composed(
            middleware, around: handler, handlerRendersErrors: handlerRendersErrors)
        let chain = HTTPNext(composed, workRendersErrors: rendersErrors)
        let (operation, access) = (route.operation, route.access)
        self.handler = { request, context in
            chain(
                request, ServiceRequestContext(http: context, operation: operation, access: access, caller: .anonymous))
        }
    }

    /// The same for every request: its handler behind the middleware, and its body limit. The
    /// router composes its own middleware around it once.
    var fixedRoute: HTTPRoute {
        HTTPRoute(maxBodyBytes: maxBodyBytes, runsOnLoop: runsOnLoop, rendersErrors: true, handler: handler)
    }

    /// This endpoint with its body limit; built from stored parts, nothing matched.
    func route(for request: HTTPRequest) -> HTTPRoute { fixedRoute }
}
