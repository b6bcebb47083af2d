import ParleyHTTP

/// Applies the route's access rule (DESIGN.md "HTTP API") and puts the ``Caller`` in the
/// context. Client checks are in memory and run on the loop; token checks read the database,
/// so token routes always go off the loop.
struct AuthenticationMiddleware: HTTPMiddleware {
    let authenticator: Authenticator
    /// Set for a chain whose route needs no token (``forRoute(_:)``): its checks run on the loop,
    /// so it never has off-loop work of its own.
    private(set) var checksOnLoopOnly = false

    init(authenticator: Authenticator) { self.authenticator = authenticator }

    /// This middleware for the chain of `route` alone.
    func forRoute(_ route: ServiceRoute) -> AuthenticationMiddleware {
        var middleware = self
        switch route.access {
        case .open, .client: middleware.checksOnLoopOnly = true
        case .anyToken, .scope: middleware.checksOnLoopOnly = false
        }
        return middleware
    }

    /// An open or client route's middleware only hands up the rest of the chain's reply.
    var addsNoOffLoopErrors: Bool { checksOnLoopOnly }

    func respond(to request: HTTPRequest, context: ServiceRequestContext, next: HTTPNext<ServiceRequestContext>)
        throws -> HTTPReply
    {
        let required: AccessScope?
        switch context.access {
        case .open:
            return next(request, context)
        case .client:
            var context = context
            context.caller = try authenticator.checkClient(request)
            return next(request, context)
        case .anyToken: required = nil
        case .scope(let scope): required = scope
        }
        let authenticator = authenticator
        return .offLoop {
            var context = context
            context.caller = try await authenticator.checkToken(request, required: required)
            return try await next(request, context).response()
        }
    }
}
