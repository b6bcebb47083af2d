import ParleyHTTP

/// Applies the route's access rule (DESIGN.md "HTTP API") and puts the ``Caller`` in the
/// context. Client checks are in memory and run on the loop; token checks read the database,
/// so token routes always go off the loop.
struct AuthenticationMiddleware: ServiceMiddleware {
    let authenticator: Authenticator

    func respond(
        to request: HTTPRequest, context: ServiceRequestContext, next: Next
    ) async throws -> HTTPResponse {
        var context = context
        switch context.route.access {
        case .open: context.caller = .anonymous
        case .client: context.caller = try authenticator.checkClient(request)
        case .anyToken: context.caller = try await authenticator.checkToken(request, required: nil)
        case .scope(let scope): context.caller = try await authenticator.checkToken(request, required: scope)
        }
        return try await next(request, context)
    }

    func respondInline(
        to request: HTTPRequest, context: ServiceRequestContext, next: InlineNext
    ) throws -> HTTPResponse? {
        var context = context
        switch context.route.access {
        case .open: context.caller = .anonymous
        case .client: context.caller = try authenticator.checkClient(request)
        case .anyToken, .scope: return nil
        }
        return try next(request, context)
    }
}
