import ParleyHTTP

/// One route of the service as the server sees it: its handler behind the middleware chain,
/// composed once at start-up, plus the route metadata the server reads once per request (body
/// limit, fast path). A class, so handing it around as `any HTTPResponder` never allocates.
final class ServiceEndpoint: HTTPResponder {
    /// A handler that may block or suspend (database work).
    typealias Handler = @Sendable (HTTPRequest, RequestContext, Caller) async throws -> HTTPResponse
    /// A handler that answers from memory, or returns nil to fall back to ``Handler``.
    typealias InlineHandler = @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse?

    let route: ServiceRoute
    let maxBodyBytes: Int
    private let shared: SharedServiceRoute
    private let chain: ServiceMiddleware.Next
    private let inline: HTTPRoute.InlineHandler?

    /// `handler` (and `inline`, when the route has a fast path) behind `middleware`, outermost first.
    init(
        route: ServiceRoute, middleware: [any ServiceMiddleware], handler: @escaping Handler,
        inline: InlineHandler?, maxBodyBytes: Int
    ) {
        self.route = route
        self.maxBodyBytes = maxBodyBytes
        let shared = SharedServiceRoute(route)
        self.shared = shared
        var chain: ServiceMiddleware.Next = { request, context in
            try await handler(request, context.http, context.caller)
        }
        var inlineChain: ServiceMiddleware.InlineNext?
        if let inline {
            inlineChain = { request, context in try inline(request, context.http) }
        }
        for layer in middleware.reversed() {
            let next = chain
            chain = { request, context in try await layer.respond(to: request, context: context, next: next) }
            if let nextInline = inlineChain {
                inlineChain = { request, context in
                    try layer.respondInline(to: request, context: context, next: nextInline)
                }
            }
        }
        self.chain = chain
        if let inlineChain {
            self.inline = { request, context in
                try inlineChain(request, ServiceRequestContext(http: context, route: shared, caller: .anonymous))
            }
        } else {
            self.inline = nil
        }
    }

    /// Runs the chain off the loop.
    func respond(to request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        try await chain(request, ServiceRequestContext(http: context, route: shared, caller: .anonymous))
    }

    /// This endpoint with its body limit and fast path; built from stored parts, nothing matched.
    func route(for request: HTTPRequest) -> HTTPRoute {
        HTTPRoute(responder: self, maxBodyBytes: maxBodyBytes, inline: inline)
    }
}
