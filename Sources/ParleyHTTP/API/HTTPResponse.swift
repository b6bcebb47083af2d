/// A complete response. The server owns framing: it writes `Content-Length`, `Date` and
/// `Connection` itself and drops any such fields set here (RFC 9112 §6).
public struct HTTPResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// Header fields other than the framing ones.
    public var headers: HTTPHeaders
    /// The content; not sent for HEAD requests or statuses that forbid it.
    public var body: [UInt8]
    /// A body written over time instead of `body` (Server-Sent Events); the response is then
    /// delimited by closing the connection (RFC 9112 §6.3). Nil for ordinary responses.
    public var stream: ResponseStream?

    /// Creates a response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A streaming response: the head now, the body as `stream` produces it.
    public static func streaming(_ stream: ResponseStream, contentType: String, headers: HTTPHeaders = [:])
        -> HTTPResponse
    {
        var response = HTTPResponse(headers: headers)
        response.headers.set("Content-Type", contentType)
        response.stream = stream
        return response
    }

    /// A response with `Content-Type: application/json` carrying already-encoded JSON bytes.
    public static func json(_ body: [UInt8], status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        headers.set("Content-Type", "application/json")
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// A response with `Content-Type: application/json` carrying already-encoded JSON text.
    public static func json(_ text: String, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> HTTPResponse {
        json(Array(text.utf8), status: status, headers: headers)
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var headers = headers
        headers.set("Content-Type", "text/plain; charset=utf-8")
        return HTTPResponse(status: status, headers: headers, body: Array(text.utf8))
    }

    /// An `application/problem+json` response (RFC 9457) rendered from `error`.
    public static func problem(_ error: HTTPError) -> HTTPResponse { error.response }
}
