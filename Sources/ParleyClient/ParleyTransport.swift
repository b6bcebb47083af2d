/// One HTTP request as ``ParleySession`` needs it: a method, a path below the
/// service's base URL, headers and an optional JSON body.
public struct ParleyRequest: Sendable, Equatable {
    /// `GET` or `POST`.
    public var method: String
    /// Path and query, e.g. `/v1/sessions/abc/answers`.
    public var path: String
    /// Header names and values (the transport adds `Content-Length`).
    public var headers: [String: String]
    /// The body bytes, if any.
    public var body: [UInt8]?

    /// Creates a request.
    public init(method: String, path: String, headers: [String: String] = [:], body: [UInt8]? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

/// One HTTP response: status, headers (names lowercased) and body.
public struct ParleyResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header values by lowercased name.
    public var headers: [String: String]
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// How ``ParleySession`` reaches the service: small on purpose, so an app can
/// bring its own stack (auth, pinning, metrics) by implementing one method.
///
/// Throw for a failure to exchange at all (no connection, reset, timeout):
/// the session treats every thrown error as transient and retries with the
/// same `Idempotency-Key`. Any HTTP status is a response, not an error.
public protocol ParleyTransport: Sendable {
    /// Sends `request` and returns the response.
    func send(_ request: ParleyRequest) async throws -> ParleyResponse
}

/// A response whose body arrives over time: `text/event-stream` (docs/live-sessions.md).
public struct ParleyStreamingResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header values by lowercased name.
    public var headers: [String: String]
    /// The body's bytes as they arrive; finishes when the server closes, throws when the connection
    /// fails. Ending iteration (or cancelling the task) must close the connection.
    public var body: AsyncThrowingStream<[UInt8], any Error>

    /// Creates a streaming response.
    public init(status: Int, headers: [String: String] = [:], body: AsyncThrowingStream<[UInt8], any Error>) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// A transport that can also follow a stream (`GET /v1/sessions/{id}/events`):
/// ``ParleySession/followLive()`` needs one. Throw, as in ``ParleyTransport/send(_:)``, only
/// when no response head arrived; the session retries that with backoff.
public protocol ParleyStreamingTransport: ParleyTransport {
    /// Sends `request` and returns as soon as the response head arrived, the body still coming.
    func open(_ request: ParleyRequest) async throws -> ParleyStreamingResponse
}
