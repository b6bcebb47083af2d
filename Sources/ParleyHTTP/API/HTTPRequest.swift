/// A complete request as handed to a responder: head, decoded target and the whole body.
public struct HTTPRequest: Sendable {
    /// The method token, case-sensitive, e.g. `GET`.
    public var method: String
    /// The request-target exactly as sent.
    public var target: String
    /// The path part of the target, still percent-encoded.
    public var path: String
    /// The path's segments, percent-decoded (`/v1/a%20b` → `["v1", "a b"]`).
    public var pathSegments: [String]
    /// The query's `name=value` items, decoded, in order, duplicates kept.
    public var queryItems: [(name: String, value: String)]
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields in order, duplicates kept.
    public var headers: HTTPHeaders
    /// The body, de-chunked; empty when none was sent.
    public var body: [UInt8]

    /// Creates a request from parts; `target` is split and decoded, throwing for malformed escapes.
    public init(
        method: String, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:],
        body: [UInt8] = []
    ) throws(HTTPError) {
        let parsed: RequestTarget
        do { parsed = try RequestTarget(target) } catch { throw HTTPError(parseError: error) }
        self.init(method: method, target: target, parsed: parsed, version: version, headers: headers, body: body)
    }

    init(
        method: String, target: String, parsed: RequestTarget, version: HTTPVersion, headers: HTTPHeaders, body: [UInt8]
    ) {
        self.method = method
        self.target = target
        self.path = parsed.path
        self.pathSegments = parsed.segments
        self.queryItems = parsed.query
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The first query value called `name`, or nil.
    public func query(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }
}
