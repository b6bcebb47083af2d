import ParleyHTTP

/// What the service's middleware and handlers know about a request: the HTTP context, the
/// route it matched, and who is calling once ``AuthenticationMiddleware`` has decided.
struct ServiceRequestContext: Sendable {
    /// The server's context (logger, peer, path parameters).
    var http: RequestContext
    /// The route the request matched, for its access rule and for messages.
    let route: ServiceRoute
    /// `anonymous` until authentication replaces it.
    var caller: Caller
}
