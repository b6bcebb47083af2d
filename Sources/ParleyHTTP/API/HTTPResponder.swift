/// The one seam for handling a request (STYLE.md: Hummingbird's `HTTPResponder`). Routers and
/// middleware are responders too, so they compose. What varies per route (its parameters, body
/// limit and on-loop fast path) is decided once, from the head, by ``route(for:)``.
public protocol HTTPResponder: Sendable {
    /// Produces the response for `request`. Runs off the event loop, so it may block (libpq).
    /// Throw `HTTPError` for a problem document; other errors become a generic 500.
    func respond(to request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse

    /// The route `request` takes, matched once from its head before any body byte is read: the
    /// server keeps the answer for the whole exchange, so no request is matched twice.
    /// Default: this responder itself, no fast path, the server's body limit.
    func route(for request: HTTPRequest) -> HTTPRoute
}

extension HTTPResponder {
    /// This responder itself: no parameters, no fast path, the server's body limit.
    public func route(for request: HTTPRequest) -> HTTPRoute { HTTPRoute(responder: self) }
}

/// A responder made from a closure that may suspend or block.
public struct ClosureResponder: HTTPResponder {
    let handler: @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse

    /// Wraps `handler`.
    public init(_ handler: @escaping @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse) {
        self.handler = handler
    }

    /// Calls the closure.
    public func respond(to request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        try await handler(request, context)
    }
}

/// A responder whose closure never blocks or suspends, so it runs inline on the event loop.
public struct InlineResponder: HTTPResponder {
    let handler: @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse

    /// Wraps `handler`, which must return promptly (no I/O, no locks held for long).
    public init(_ handler: @escaping @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse) {
        self.handler = handler
    }

    /// Calls the closure.
    public func respond(to request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        try handler(request, context)
    }

    /// This responder, answering on the loop.
    public func route(for request: HTTPRequest) -> HTTPRoute {
        let handler = handler
        return HTTPRoute(responder: self, inline: { request, context in try handler(request, context) })
    }
}
