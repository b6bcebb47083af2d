import ParleyHTTP

/// What the service's middleware and handlers know about a request: the HTTP context, the
/// route it matched, and who is calling once ``AuthenticationMiddleware`` has decided.
///
/// The route is held as its access rule and operation, plain values: the context is copied
/// down the middleware chain (four copies a request), and a reference to the route object,
/// which every event loop shares, cost a reference count on a cache line other cores write at
/// each copy.
struct ServiceRequestContext: HTTPRequestContext {
    /// The server's context (logger, peer, path parameters).
    var http: RequestContext
    /// The operation the request matched.
    let operation: ServiceOperation
    /// Who may call the route.
    let access: RouteAccess
    /// The route the request matched, for messages (looked up: only error paths ask).
    var route: ServiceRoute? { ServiceRoute.all.first { $0.operation == operation } }
    /// `anonymous` until authentication replaces it.
    var caller: Caller

    init(http: RequestContext, operation: ServiceOperation, access: RouteAccess, caller: Caller) {
        self.http = http
        self.operation = operation
        self.access = access
        self.caller = caller
    }
}
