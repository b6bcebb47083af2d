import ParleyHTTP

/// Cross-cutting work around every route's handler (Hummingbird's `RouterMiddleware`), typed by
/// ``ServiceRequestContext`` so authentication can hand the handler a ``Caller``. Each has an
/// off-loop and an on-loop side so a route keeps its fast path behind any middleware.
protocol ServiceMiddleware: Sendable {
    /// The rest of the chain, off the loop.
    typealias Next = @Sendable (HTTPRequest, ServiceRequestContext) async throws -> HTTPResponse
    /// The rest of the chain on the loop; nil sends the request off the loop.
    typealias InlineNext = @Sendable (HTTPRequest, ServiceRequestContext) throws -> HTTPResponse?

    /// Handles `request` off the loop, usually by calling `next`.
    func respond(to request: HTTPRequest, context: ServiceRequestContext, next: Next) async throws -> HTTPResponse

    /// Handles `request` on the loop without blocking or suspending; nil (its own or `next`'s)
    /// sends the request off the loop to ``respond(to:context:next:)``.
    func respondInline(to request: HTTPRequest, context: ServiceRequestContext, next: InlineNext) throws
        -> HTTPResponse?
}
