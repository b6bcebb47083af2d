/// The one seam for handling a request (STYLE.md: Hummingbird's `HTTPResponder`): what varies
/// per route (its handler, parameters and body limit) is decided once, from the head, by
/// ``route(for:)``. Routers and middleware are responders too, so they compose.
public protocol HTTPResponder: Sendable {
    /// The route `request` takes, matched once from its head before any body byte is read: the
    /// server keeps the answer for the whole exchange, so no request is matched twice.
    func route(for request: HTTPRequest) -> HTTPRoute
}

extension HTTPResponder {
    /// The response for `request` through its route, waiting for any off-loop work here (tests,
    /// and callers outside the server's loops). Errors come back as their responses.
    public func respond(to request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        await route(for: request).respond(to: request, context: context)
    }
}

/// A responder made from a closure that may suspend or block: it always goes off the loop.
public struct ClosureResponder: HTTPResponder {
    let handler: @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse

    /// Wraps `handler`.
    public init(_ handler: @escaping @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse) {
        self.handler = handler
    }

    /// A route whose handler goes off the loop to run the closure.
    public func route(for request: HTTPRequest) -> HTTPRoute {
        let handler = handler
        return HTTPRoute { request, context in .offLoop { try await handler(request, context) } }
    }
}

/// A responder whose closure never blocks or suspends, so it answers on the event loop.
public struct InlineResponder: HTTPResponder {
    let handler: @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse

    /// Wraps `handler`, which must return promptly (no I/O, no locks held for long).
    public init(_ handler: @escaping @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse) {
        self.handler = handler
    }

    /// A route answered on the loop.
    public func route(for request: HTTPRequest) -> HTTPRoute {
        let handler = handler
        return HTTPRoute { request, context in .now(try handler(request, context)) }
    }
}
