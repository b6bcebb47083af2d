/// What a responder decided about one request from its head (Hummingbird's route match): the
/// responder that answers it, the path parameters, the body limit and the on-loop fast path.
/// The server asks once per request and carries the answer, so the route is matched once.
public struct HTTPRoute: Sendable {
    /// Answers on the event loop without blocking or suspending; nil means "go off the loop".
    public typealias InlineHandler = @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse?

    /// The responder that answers this request off the loop; it matches nothing again.
    public var responder: any HTTPResponder
    /// Path parameters bound by the match, handed to the responder in its context.
    public var parameters: PathParameters
    /// The largest body this request may carry (→ 413 before any body byte is read); nil uses
    /// the server's `maxBodyBytes`.
    public var maxBodyBytes: Int?
    /// The fast path, tried first on the loop; nil when the route always goes off the loop.
    public var inline: InlineHandler?

    /// A route answered by `responder`.
    public init(
        responder: any HTTPResponder, parameters: PathParameters = PathParameters(), maxBodyBytes: Int? = nil,
        inline: InlineHandler? = nil
    ) {
        self.responder = responder
        self.parameters = parameters
        self.maxBodyBytes = maxBodyBytes
        self.inline = inline
    }

    /// A route that answers with `error` (404, 405) on the loop, whatever the body.
    public static func failing(_ error: HTTPError) -> HTTPRoute {
        HTTPRoute(responder: FailingResponder(error: error), inline: { _, _ in throw error })
    }

    /// Answers on the loop when the fast path can, else nil; `context` gets the parameters.
    public func respondInline(to request: HTTPRequest, context: RequestContext) throws -> HTTPResponse? {
        guard let inline else { return nil }
        var context = context
        context.parameters = parameters
        return try inline(request, context)
    }

    /// Answers off the loop through ``responder``; `context` gets the parameters.
    public func respond(to request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse {
        var context = context
        context.parameters = parameters
        return try await responder.respond(to: request, context: context)
    }
}

/// Throws one error for every request: what an unmatched path or method answers.
struct FailingResponder: HTTPResponder {
    let error: HTTPError

    func respond(to request: HTTPRequest, context: RequestContext) async throws -> HTTPResponse { throw error }
}
