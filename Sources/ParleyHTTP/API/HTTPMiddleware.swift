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

    /// Whether this layer's off-loop work throws nothing of its own: it hands up `next`'s reply, or
    /// work that only awaits `next`'s work (which never throws) and adjusts the response. Then the
    /// layer above hands that work on as it is instead of wrapping it to render errors: an async
    /// closure fewer per layer on every off-loop request. False unless a middleware says so.
    var addsNoOffLoopErrors: Bool { get }
}

extension HTTPMiddleware {
    /// Off-loop work of a middleware may throw unless it says otherwise.
    public var addsNoOffLoopErrors: Bool { false }
}

/// A chain of middleware around one handler, composed once at start-up.
public enum HTTPMiddlewareChain {
    /// `handler` behind `middleware`, outermost first. Each layer calls the next through an
    /// ``HTTPNext``, so a layer never sees an error from below; the returned handler's own
    /// errors are rendered by whoever calls it through one.
    public static func compose<Context: HTTPRequestContext>(
        _ middleware: [any HTTPMiddleware<Context>], around handler: @escaping InlineHandler<Context>
    ) -> InlineHandler<Context> {
        composed(middleware, around: handler, handlerRendersErrors: false).handler
    }

    /// ``compose(_:around:)``, and whether the composed handler's off-loop work renders its own
    /// errors: when the outermost layer adds none of its own (``HTTPMiddleware/addsNoOffLoopErrors``)
    /// over the ``HTTPNext`` below it. `handlerRendersErrors`: the same of `handler`.
    public static func composed<Context: HTTPRequestContext>(
        _ middleware: [any HTTPMiddleware<Context>], around handler: @escaping InlineHandler<Context>,
        handlerRendersErrors: Bool
    ) -> (handler: InlineHandler<Context>, rendersErrors: Bool) {
        var chain = handler
        var rendersErrors = handlerRendersErrors
        for layer in middleware.reversed() {
            let next = HTTPNext(chain, workRendersErrors: rendersErrors)
            chain = { request, context in try layer.respond(to: request, context: context, next: next) }
            // The layer's work is `next`'s (which never throws) or its own.
            rendersErrors = layer.addsNoOffLoopErrors
        }
        return (chain, rendersErrors)
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
        (route.handler, route.rendersErrors) = HTTPMiddlewareChain.composed(
            [middleware], around: route.handler, handlerRendersErrors: route.rendersErrors)
        return route
    }
}
