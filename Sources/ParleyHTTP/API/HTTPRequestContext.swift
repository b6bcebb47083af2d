/// What a middleware chain's context must offer: the server's ``RequestContext``, and how
/// errors of its own domain become problem documents. A service extends the context with what
/// its middleware decides (who is calling) and says how its errors read, as Hummingbird's
/// request contexts do.
public protocol HTTPRequestContext: Sendable {
    /// The server's context (logger, peer, path parameters).
    var http: RequestContext { get }

    /// The problem document `error` stands for, when it is not an ``HTTPError`` itself; nil
    /// makes it a generic 500 whose details go to the log only.
    func problem(for error: any Error, in request: HTTPRequest) -> HTTPError?
}

extension HTTPRequestContext {
    /// No error of its own: every non-``HTTPError`` is a 500.
    public func problem(for error: any Error, in request: HTTPRequest) -> HTTPError? { nil }
}

extension RequestContext: HTTPRequestContext {
    /// Itself.
    public var http: RequestContext { self }
}
