/// Code that runs around a responder: authentication, metrics, headers. Composed with
/// `HTTPResponder.wrapped(in:)`, which yields a responder again. A middleware has an off-loop
/// and an on-loop side, so wrapping a route keeps its fast path instead of silently losing it.
public protocol HTTPMiddleware: Sendable {
    /// Handles `request`, usually by calling `next` and adjusting its response.
    func respond(to request: HTTPRequest, context: RequestContext, next: any HTTPResponder) async throws
        -> HTTPResponse

    /// The same on the event loop: must not block or suspend; return nil (or let `next` return
    /// nil) to send the request off the loop to ``respond(to:context:next:)`` instead.
    func respondInline(to request: HTTPRequest, context: RequestContext, next: HTTPRoute.InlineHandler) throws
        -> HTTPResponse?
}

extension HTTPResponder {
    /// This responder behind `middleware`.
    public func wrapped(in middleware: any HTTPMiddleware) -> any HTTPResponder {
        MiddlewareResponder(middleware: middleware, next: self)
    }
}

/// A middleware bound to the responder it wraps.
struct MiddlewareResponder: HTTPResponder {
    let middleware: any HTTPMiddleware
    let next: any HTTPResponder

    func respond(to request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        try await middleware.respond(to: request, context: context, next: next)
    }

    /// The wrapped route, its off-loop responder and its fast path both behind the middleware.
    func route(for request: HTTPRequest) -> HTTPRoute {
        var route = next.route(for: request)
        let middleware = middleware
        route.responder = MiddlewareResponder(middleware: middleware, next: route.responder)
        if let inline = route.inline {
            route.inline = { request, context in
                try middleware.respondInline(to: request, context: context, next: inline)
            }
        }
        return route
    }
}
