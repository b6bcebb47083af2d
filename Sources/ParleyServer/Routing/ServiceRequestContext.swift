import ParleyHTTP

/// What the service's middleware and handlers know about a request: the HTTP context, the
/// route it matched, and who is calling once ``AuthenticationMiddleware`` has decided.
struct ServiceRequestContext: HTTPRequestContext {
    /// The server's context (logger, peer, path parameters).
    var http: RequestContext
    /// The route the request matched, for its access rule and for messages.
    var route: ServiceRoute { shared.route }
    /// `anonymous` until authentication replaces it.
    var caller: Caller
    private let shared: SharedServiceRoute

    init(http: RequestContext, route: SharedServiceRoute, caller: Caller) {
        self.http = http
        self.shared = route
        self.caller = caller
    }
}
