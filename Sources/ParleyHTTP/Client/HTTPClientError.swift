import Glibc

/// Why an outgoing request failed. Messages name the step (resolve, connect, TLS, read) so an
/// operator reading a delivery's last error knows where it broke; they never carry the body.
public enum HTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL cannot be used.
    case invalidURL(String)
    /// The host name did not resolve.
    case resolution(String)
    /// The policy refused the resolved address.
    case refusedAddress(String)
    /// TCP connect failed or timed out.
    case connect(String)
    /// The TLS handshake or certificate check failed.
    case tls(String)
    /// Reading or writing failed or timed out.
    case io(String)
    /// The response is not valid HTTP/1.1.
    case malformedResponse(String)

    /// A message for an operator.
    public var description: String {
        switch self {
        case .invalidURL(let detail): "invalid URL: \(detail)"
        case .resolution(let detail): "cannot resolve: \(detail)"
        case .refusedAddress(let detail): "refused: \(detail)"
        case .connect(let detail): "connect: \(detail)"
        case .tls(let detail): "TLS: \(detail)"
        case .io(let detail): "I/O: \(detail)"
        case .malformedResponse(let detail): "malformed response: \(detail)"
        }
    }

    /// `call: strerror(errno)`.
    static func system(_ call: String, _ code: Int32 = errno) -> String {
        "\(call): \(String(cString: strerror(code)))"
    }
}
