/// What a responder decided about one request from its head (Hummingbird's route match): the
/// handler that answers it, the path parameters and the body limit. The server asks once per
/// request and carries the answer, so the route is matched once.
public struct HTTPRoute: Sendable {
    /// Answers the request on the loop, or says what must run off it; its middleware is
    /// already composed in.
    public var handler: InlineHandler<RequestContext>
    /// Path parameters bound by the match, handed to the handler in its context.
    public var parameters: PathParameters
    /// The largest body this request may carry (→ 413 before any body byte is read); nil uses
    /// the server's `maxBodyBytes`.
    public var maxBodyBytes: Int?
    /// Whether its off-loop work runs as a task on the request's event loop, for a request whose
    /// body is at most ``maxBodyBytesRunningOnLoop``: it starts at once (`Task.immediate`, no
    /// job queued first), and whenever it resumes after a suspension it goes on there, between
    /// the loop's events. For routes whose work never blocks and is short between suspensions (a
    /// session answer: parse, validate, queue the append; then write the new snapshot): handing
    /// it to a responder thread cost a wake-up and a context switch at the start, and at the end
    /// the poller woke a responder that then woke the loop (issue 27).
    public var runsOnLoop: Bool

    /// The largest body whose work runs on the loop (``runsOnLoop``): past it, an answer's
    /// validation (linear in its length, but with patterns of up to 10,000 instructions) could
    /// hold the loop for milliseconds, so larger requests run on a responder as before.
    public static let maxBodyBytesRunningOnLoop = 1024

    /// Whether the handler's off-loop work never throws (its errors are responses already), so
    /// the server runs it as it is, without a closure around it to render them.
    public var rendersErrors: Bool

    /// A route answered by `handler`; `runsOnLoop` and `rendersErrors` as ``runsOnLoop`` and
    /// ``rendersErrors``.
    public init(
        parameters: PathParameters = PathParameters(), maxBodyBytes: Int? = nil, runsOnLoop: Bool = false,
        rendersErrors: Bool = false,
        handler: @escaping InlineHandler<RequestContext>
    ) {
        self.handler = handler
        self.parameters = parameters
        self.maxBodyBytes = maxBodyBytes
        self.runsOnLoop = runsOnLoop
        self.rendersErrors = rendersErrors
    }

    /// Whether `request`'s off-loop work runs on its event loop (``runsOnLoop``).
    func runsOnLoop(_ request: HTTPRequest) -> Bool {
        runsOnLoop && request.body.count <= Self.maxBodyBytesRunningOnLoop
    }

    /// A route that answers with `error` (404, 405) on the loop, whatever the body.
    public static func failing(_ error: HTTPError) -> HTTPRoute {
        HTTPRoute { _, _ in throw error }
    }

    /// Runs the route on the event loop: the response, or the work to run off the loop. Errors
    /// are already responses; `context` gets the parameters.
    public func respondInline(to request: HTTPRequest, context: RequestContext) -> HTTPReply {
        var context = context
        context.parameters = parameters
        return respondInline(to: request, parameterized: context)
    }

    /// ``respondInline(to:context:)`` for a context that already holds this route's parameters
    /// (the server builds it so), saving a copy of the context per request.
    func respondInline(to request: HTTPRequest, parameterized context: RequestContext) -> HTTPReply {
        HTTPNext(handler, workRendersErrors: rendersErrors)(request, context)
    }

    /// The response, waiting for any off-loop work here.
    public func respond(to request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        switch respondInline(to: request, context: context) {
        case .now(let response): return response
        case .offLoop(let work): return await HTTPNext<RequestContext>.settle(work, request, context)
        }
    }
}
