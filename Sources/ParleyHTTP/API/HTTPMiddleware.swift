/// Code that runs around a responder: authentication, metrics, headers. Composed with
/// `HTTPResponder.wrapped(in:)`, which yields a responder again.
public protocol HTTPMiddleware: Sendable {
    /// Handles `request`, usually by calling `next` and adjusting its response.
    func respond(to request: HTTPRequest, context: RequestContext, next: any HTTPResponder) async throws
        -> HTTPResponse
}

extension HTTPResponder {
    /// This responder behind `middleware`.
    public func wrapped(in middleware: any HTTPMiddleware) -> any HTTPResponder {
        MiddlewareResponder(middleware: middleware, next: self)
    }
}

/// A middleware bound to the responder it wraps.
struct MiddlewareResponder: HTTPResponder {
    let middleware: any HTTPMiddleware
    let next: any HTTPResponder

    func respond(to request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        try await middleware.respond(to: request, context: context, next: next)
    }

    func maxBodyBytes(for request: HTTPRequest) -> Int? { next.maxBodyBytes(for: request) }
}
