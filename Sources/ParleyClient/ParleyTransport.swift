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

/// The seam for live sessions (DESIGN.md "Live sessions", not served yet):
/// a transport that can follow `GET /v1/sessions/{id}/events` conforms, and
/// ``ParleySession/followEvents()`` feeds every snapshot it yields through the
/// same stale-rev filter as responses.
public protocol ParleySnapshotStreaming: Sendable {
    /// Snapshot documents of the session as the server sends them, starting after `lastRev`.
    func snapshots(session: String, after lastRev: Int) -> AsyncThrowingStream<[UInt8], any Error>
}
