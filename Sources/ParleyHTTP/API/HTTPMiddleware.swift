/// Code that runs around a handler: request ids, metrics, authentication (Hummingbird's
/// `MiddlewareProtocol`). One method serves both paths: it runs on the event loop and returns
/// `next`'s reply, adjusted with ``HTTPReply/map(_:)``; when it must itself block or suspend
/// (a token lookup), it returns ``HTTPReply/offLoop(_:)`` and awaits `next` inside. `Context`
/// is ``RequestContext`` around a whole router, or a service's richer context around a route.
public protocol HTTPMiddleware<Context>: Sendable {
    /// What the layers of this chain know about a request.
    associatedtype Context: HTTPRequestContext

    /// Handles `request`, usually by calling `next` and adjusting its reply. A thrown error
    /// becomes the response in the layer above (``HTTPNext``).
    func respond(to request: HTTPRequest, context: Context, next: HTTPNext<Context>) throws -> HTTPReply
}

/// A chain of middleware around one handler, composed once at start-up.
public enum HTTPMiddlewareChain {
    /// `handler` behind `middleware`, outermost first. Each layer calls the next through an
    /// ``HTTPNext``, so a layer never sees an error from below; the returned handler's own
    /// errors are rendered by whoever calls it through one.
    public static func compose<Context: HTTPRequestContext>(
        _ middleware: [any HTTPMiddleware<Context>], around handler: @escaping InlineHandler<Context>
    ) -> InlineHandler<Context> {
        var chain = handler
        for layer in middleware.reversed() {
            let next = HTTPNext(chain)
            chain = { request, context in try layer.respond(to: request, context: context, next: next) }
        }
        return chain
    }
}

extension HTTPResponder {
    /// This responder behind `middleware`: every route it matches, on and off the loop.
    public func wrapped(in middleware: some HTTPMiddleware<RequestContext>) -> any HTTPResponder {
        MiddlewareResponder(middleware: middleware, next: self)
    }
}

/// A middleware bound to the responder it wraps.
struct MiddlewareResponder<Middleware: HTTPMiddleware<RequestContext>>: HTTPResponder {
    let middleware: Middleware
    let next: any HTTPResponder

    /// The wrapped route, its handler behind the middleware.
    func route(for request: HTTPRequest) -> HTTPRoute {
        var route = next.route(for: request)
        route.handler = HTTPMiddlewareChain.compose([middleware], around: route.handler)
        return route
    }
}
