/// The one seam for handling a request (STYLE.md: Hummingbird's `HTTPResponder`). Routers and
/// middleware are responders too, so they compose.
public protocol HTTPResponder: Sendable {
    /// Produces the response for `request`. Runs off the event loop, so it may block (libpq).
    /// Throw `HTTPError` for a problem document; other errors become a generic 500.
    func respond(to request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse

    /// The fast path: a response computed without suspending or blocking, run inline on the
    /// event loop; nil means "call `respond` off the loop instead". Default: nil.
    func respondInline(to request: HTTPRequest, context: RequestContext) throws -> HTTPResponse?

    /// The largest body this request may carry, decided from its head before any body byte is
    /// read (→ 413); nil uses the server's `maxBodyBytes`. Default: nil.
    func maxBodyBytes(for request: HTTPRequest) -> Int?
}

extension HTTPResponder {
    /// No fast path by default.
    public func respondInline(to request: HTTPRequest, context: RequestContext) throws -> HTTPResponse? { nil }

    /// The server's limit by default.
    public func maxBodyBytes(for request: HTTPRequest) -> Int? { nil }
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

    /// Calls the closure on the loop.
    public func respondInline(to request: HTTPRequest, context: RequestContext) throws -> HTTPResponse? {
        try handler(request, context)
    }
}
