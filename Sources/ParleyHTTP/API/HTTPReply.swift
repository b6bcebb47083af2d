/// What a handler or middleware answers (the one seam, after Hummingbird's
/// `RouterResponder`): a response now, from memory on the event loop, or the work that must
/// leave the loop (database, blocking I/O). Whether a request goes off the loop is a property of
/// this value, decided by the handler each time, so an operation has one handler, not an
/// on-loop twin, and every middleware layer runs the same code on both paths.
public enum HTTPReply: Sendable {
    /// The response, made without blocking or suspending.
    case now(HTTPResponse)
    /// Work that may block or suspend; the server runs it on its responder threads.
    case offLoop(@Sendable () async throws -> HTTPResponse)

    /// This reply with `transform` applied to its response, now or once the work is done.
    public func map(_ transform: @escaping @Sendable (HTTPResponse) -> HTTPResponse) -> HTTPReply {
        switch self {
        case .now(let response): return .now(transform(response))
        case .offLoop(let work): return .offLoop { transform(try await work()) }
        }
    }

    /// This reply with `transform(&response, value)` applied, now or once the work is done. For
    /// the hot path: `transform` captures nothing and edits the response in place, so a reply
    /// answered now allocates nothing and copies nothing (``map(_:)``'s capturing closure is
    /// allocated per call, and a transform that returned a new response copied every field of
    /// it); `value` is captured only when there is off-loop work to wait for.
    @inlinable
    public consuming func map<Value: Sendable>(
        with value: Value, _ transform: @escaping @Sendable (inout HTTPResponse, Value) -> Void
    ) -> HTTPReply {
        switch consume self {
        case .now(var response):
            transform(&response, value)
            return .now(response)
        case .offLoop(let work):
            return .offLoop {
                var response = try await work()
                transform(&response, value)
                return response
            }
        }
    }

    /// The response, waiting for the work when there is any: for a middleware that must
    /// itself go off the loop (a token check) before calling the rest of the chain.
    public func response() async throws -> HTTPResponse {
        switch self {
        case .now(let response): return response
        case .offLoop(let work): return try await work()
        }
    }
}
