/// A response status code with its reason phrase (RFC 9110 §15).
public struct HTTPStatus: Sendable, Hashable, CustomStringConvertible {
    /// The three-digit code.
    public var code: Int
    /// The reason phrase sent on the status line.
    public var reason: String

    /// Creates a status; the reason defaults to the registered phrase for `code`.
    public init(code: Int, reason: String? = nil) {
        self.code = code
        self.reason = reason ?? HTTPStatus.reasonPhrase(for: code)
    }

    /// `200 OK` form.
    public var description: String { "\(code) \(reason)" }

    /// Whether a response with this status never carries content (RFC 9110 §6.4.1).
    public var forbidsBody: Bool { code < 200 || code == 204 || code == 304 }

    public static let ok = HTTPStatus(code: 200)
    public static let created = HTTPStatus(code: 201)
    public static let accepted = HTTPStatus(code: 202)
    public static let noContent = HTTPStatus(code: 204)
    public static let notModified = HTTPStatus(code: 304)
    public static let badRequest = HTTPStatus(code: 400)
    public static let unauthorized = HTTPStatus(code: 401)
    public static let forbidden = HTTPStatus(code: 403)
    public static let notFound = HTTPStatus(code: 404)
    public static let methodNotAllowed = HTTPStatus(code: 405)
    public static let requestTimeout = HTTPStatus(code: 408)
    public static let conflict = HTTPStatus(code: 409)
    public static let preconditionFailed = HTTPStatus(code: 412)
    public static let contentTooLarge = HTTPStatus(code: 413)
    public static let unsupportedMediaType = HTTPStatus(code: 415)
    public static let unprocessableContent = HTTPStatus(code: 422)
    public static let tooManyRequests = HTTPStatus(code: 429)
    public static let internalServerError = HTTPStatus(code: 500)
    public static let notImplemented = HTTPStatus(code: 501)
    public static let serviceUnavailable = HTTPStatus(code: 503)

    /// The registered reason phrase for `code` (RFC 9110 §15), or "Status".
    public static func reasonPhrase(for code: Int) -> String {
        switch code {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
