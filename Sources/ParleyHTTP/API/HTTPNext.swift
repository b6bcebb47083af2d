/// The rest of a chain, as a middleware calls it: whatever the layers below throw, now or
/// off the loop, comes back as its response, so a middleware only ever sees responses (metrics
/// count the real status, request ids tag every problem document).
///
/// This is the one place an error becomes a response (DESIGN.md "HTTP API"): an ``HTTPError``
/// renders itself, the context may map its domain's errors to one, anything else is logged and
/// becomes a generic 500 that reveals nothing.
public struct HTTPNext<Context: HTTPRequestContext>: Sendable {
    private let handler: InlineHandler<Context>
    /// Whether the handler's off-loop work renders its own errors (it never throws): then that
    /// work is handed up as it is, not wrapped in one more async closure that could catch nothing.
    private let workRendersErrors: Bool

    /// The chain below, ending in a handler.
    public init(_ handler: @escaping InlineHandler<Context>) {
        self.init(handler, workRendersErrors: false)
    }

    /// The chain below; `workRendersErrors`: whatever off-loop work `handler` returns never
    /// throws (each of its layers below renders errors, ``HTTPMiddlewareChain/composed(_:around:handlerRendersErrors:)``).
    public init(_ handler: @escaping InlineHandler<Context>, workRendersErrors: Bool) {
        self.handler = handler
        self.workRendersErrors = workRendersErrors
    }

    /// Runs the rest of the chain; its errors are already responses.
    public func callAsFunction(_ request: HTTPRequest, _ context: Context) -> HTTPReply {
        let reply: HTTPReply
        do {
            reply = try handler(request, context)
        } catch {
            return .now(Self.response(for: error, request, context))
        }
        guard !workRendersErrors, case .offLoop(let work) = reply else { return reply }
        return .offLoop { await Self.settle(work, request, context) }
    }

    /// Waits for off-loop `work`, rendering what it throws.
    static func settle(
        _ work: @Sendable () async throws -> HTTPResponse, _ request: HTTPRequest, _ context: Context
    ) async -> HTTPResponse {
        do {
            return try await work()
        } catch {
            return response(for: error, request, context)
        }
    }

    /// The response `error` becomes, as every layer renders it: for a handler whose off-loop work
    /// catches its own errors (and so needs no ``settle(_:_:_:)`` around it, an async closure
    /// fewer per request).
    public static func response(for error: any Error, _ request: HTTPRequest, _ context: Context) -> HTTPResponse {
        if let problem = error as? HTTPError { return problem.response }
        if let problem = context.problem(for: error, in: request) { return problem.response }
        context.http.requestLogger.error(
            "responder failed",
            metadata: ["method": "\(request.method)", "error": "\(String(reflecting: error))"])
        return HTTPError.internalError.response
    }
}
