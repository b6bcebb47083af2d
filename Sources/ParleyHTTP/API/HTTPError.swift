/// An error that renders itself as an `application/problem+json` document (RFC 9457). Throw it
/// from a responder to answer with a 4xx/5xx; any other error becomes a generic 500 whose
/// details stay in the log, so internals never leak to clients.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// A member beyond the standard ones, e.g. a validation error list.
    public enum Member: Sendable, Hashable {
        case string(String)
        case integer(Int)
        case bool(Bool)
        /// Already-encoded JSON, inserted verbatim; the caller guarantees it is valid.
        case rawJSON(String)
    }

    /// Why the server itself raised the error; kept private so cases can grow.
    private enum Origin: Sendable, Hashable {
        case responder
        case protocolViolation
        case routing
        case unexpected
    }

    private let origin: Origin
    /// The response status.
    public let status: HTTPStatus
    /// A URI that identifies the problem type; `about:blank` means "see the status".
    public let type: String
    /// A short, human-readable summary that is the same for every occurrence of the type.
    public let title: String
    /// An explanation specific to this occurrence, safe to show the client.
    public let detail: String?
    /// Extension members, in order.
    public let members: [(name: String, value: Member)]
    /// Extra header fields to send, e.g. `Allow` or `Retry-After`.
    public let headers: HTTPHeaders

    /// Creates an error; `title` defaults to the status's reason phrase.
    public init(
        _ status: HTTPStatus, type: String = "about:blank", title: String? = nil, detail: String? = nil,
        members: [(name: String, value: Member)] = [], headers: HTTPHeaders = [:]
    ) {
        self.init(
            origin: .responder, status: status, type: type, title: title, detail: detail, members: members,
            headers: headers)
    }

    private init(
        origin: Origin, status: HTTPStatus, type: String, title: String?, detail: String?,
        members: [(name: String, value: Member)], headers: HTTPHeaders
    ) {
        self.origin = origin
        self.status = status
        self.type = type
        self.title = title ?? status.reason
        self.detail = detail
        self.members = members
        self.headers = headers
    }

    /// 404: no route matches the path.
    public static func notFound(detail: String? = nil) -> HTTPError {
        HTTPError(
            origin: .routing, status: .notFound, type: "about:blank", title: nil, detail: detail, members: [],
            headers: [:])
    }

    /// 405 with the `Allow` field listing what the path supports (RFC 9110 §15.5.6).
    public static func methodNotAllowed(allowed: [String]) -> HTTPError {
        HTTPError(
            origin: .routing, status: .methodNotAllowed, type: "about:blank", title: nil,
            detail: "Allowed methods: \(allowed.joined(separator: ", ")).", members: [],
            headers: ["Allow": allowed.joined(separator: ", ")])
    }

    /// 500 for an error that is not an `HTTPError`; its description is never sent.
    public static let internalError = HTTPError(
        origin: .unexpected, status: .internalServerError, type: "about:blank", title: nil,
        detail: "The server could not complete the request.", members: [], headers: [:])

    init(parseError: HTTPParseError) {
        self.init(
            origin: .protocolViolation, status: HTTPStatus(code: parseError.status), type: "about:blank", title: nil,
            detail: parseError.reason, members: [], headers: [:])
    }

    /// Whether the server raised this for a malformed request (the connection is then closed).
    var isProtocolViolation: Bool { origin == .protocolViolation }

    /// `404 Not Found: detail` form, for logs.
    public var description: String { "\(status)" + (detail.map { ": \($0)" } ?? "") }

    /// The problem document as a response.
    public var response: HTTPResponse {
        var json = "{\"type\":\(JSONText.quoted(type)),\"title\":\(JSONText.quoted(title)),\"status\":\(status.code)"
        if let detail { json += ",\"detail\":\(JSONText.quoted(detail))" }
        for (name, value) in members {
            json += ",\(JSONText.quoted(name)):"
            switch value {
            case .string(let text): json += JSONText.quoted(text)
            case .integer(let number): json += String(number)
            case .bool(let flag): json += flag ? "true" : "false"
            case .rawJSON(let raw): json += raw
            }
        }
        json += "}"
        var headers = headers
        headers.set("Content-Type", "application/problem+json")
        return HTTPResponse(status: status, headers: headers, body: Array(json.utf8))
    }
}
