import ParleyHTTP

/// What the service's middleware and handlers know about a request: the HTTP context, the
/// route it matched, and who is calling once ``AuthenticationMiddleware`` has decided.
struct ServiceRequestContext: HTTPRequestContext {
    /// The server's context (logger, peer, path parameters).
    var http: RequestContext
    /// The route the request matched, for messages.
    var route: ServiceRoute { shared.route }
    /// Who may call the route: read in place, where ``route`` hands out a copy of the whole
    /// route (strings and tables) to every request that asks.
    var access: RouteAccess { shared.route.access }
    /// `anonymous` until authentication replaces it.
    var caller: Caller
    private let shared: SharedServiceRoute

    init(http: RequestContext, route: SharedServiceRoute, caller: Caller) {
        self.http = http
        self.shared = route
        self.caller = caller
    }
}
