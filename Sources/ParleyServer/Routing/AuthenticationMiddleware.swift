import ParleyHTTP

/// Applies the route's access rule (DESIGN.md "HTTP API") and puts the ``Caller`` in the
/// context. Client checks are in memory and run on the loop; token checks read the database,
/// so token routes always go off the loop.
struct AuthenticationMiddleware: HTTPMiddleware {
    let authenticator: Authenticator

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
