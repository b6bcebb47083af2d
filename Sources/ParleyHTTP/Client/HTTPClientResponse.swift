/// A response as the client read it. The body is capped (``HTTPClientSettings/maxResponseBytes``):
/// past the cap the rest is not read and ``truncated`` is set.
public struct HTTPClientResponse: Sendable {
    /// The status code.
    public let status: Int
    /// Header fields in order.
    public let headers: HTTPHeaders
    /// The body, de-chunked, at most the cap.
    public let body: [UInt8]
    /// Whether the body was longer than the cap.
    public let truncated: Bool
}
