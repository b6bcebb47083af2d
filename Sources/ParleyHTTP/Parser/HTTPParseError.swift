/// Why a request could not be parsed, with the status the server answers before closing
/// the connection (RFC 9112 §2.2: a server that receives an invalid request SHOULD respond 400).
struct HTTPParseError: Error, Hashable, CustomStringConvertible {
    /// The response status: 400, 413, 414, 417, 431, 501 or 505.
    let status: Int
    /// A short explanation that is safe to show the client.
    let reason: String

    var description: String { "\(status): \(reason)" }

    static func badRequest(_ reason: String) -> HTTPParseError { HTTPParseError(status: 400, reason: reason) }
    static let uriTooLong = HTTPParseError(status: 414, reason: "The request line is too long.")
    static let headersTooLarge = HTTPParseError(status: 431, reason: "The request header section is too large.")
    static let tooManyHeaders = HTTPParseError(status: 431, reason: "The request has too many header fields.")
    static let bodyTooLarge = HTTPParseError(status: 413, reason: "The request body is too large.")
    static let expectationFailed = HTTPParseError(status: 417, reason: "Only Expect: 100-continue is supported.")
    static let unsupportedVersion = HTTPParseError(status: 505, reason: "Only HTTP/1.0 and HTTP/1.1 are supported.")
    static func notImplemented(_ reason: String) -> HTTPParseError { HTTPParseError(status: 501, reason: reason) }
}
