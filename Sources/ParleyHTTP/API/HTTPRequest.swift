/// A complete request as handed to a responder: head, decoded target and the whole body.
public struct HTTPRequest: Sendable {
    /// Everything but the body, fixed once the head is parsed: in one immutable object, so the
    /// request passed down the middleware chain, into its exchange and to a responder costs one
    /// reference count per copy instead of one per string and array (callgrind: two copies of
    /// every request, about a dozen counts each, on the cache-hot screen path).
    private final class Head: Sendable {
        /// Method, target, version and fields as parsed: moved in whole from the parser (taking
        /// them out one by one copied each and destroyed the rest).
        let parsed: HTTPRequestHead
        let path: String
        /// The decoded segments when the path needs decoding; nil for a plain path, whose
        /// segments are read from ``path`` (``RequestTarget/decodedSegments``).
        let decodedSegments: [String]?
        let queryItems: [(name: String, value: String)]

        var method: String { parsed.method }
        var target: String { parsed.target }
        var version: HTTPVersion { parsed.version }
        var headers: HTTPHeaders { parsed.headers }

        init(
            _ parsed: consuming HTTPRequestHead, path: String, decodedSegments: [String]?,
            queryItems: [(name: String, value: String)]
        ) {
            self.parsed = parsed
            self.path = path
            self.decodedSegments = decodedSegments
            self.queryItems = queryItems
        }

        convenience init(
            method: String, target: String, path: String, decodedSegments: [String]?,
            queryItems: [(name: String, value: String)], version: HTTPVersion, headers: HTTPHeaders
        ) {
            self.init(
                HTTPRequestHead(method: method, target: target, version: version, headers: headers), path: path,
                decodedSegments: decodedSegments, queryItems: queryItems)
        }

        /// A copy with one part changed (a setter below: rare, never on the request path).
        func with(
            method: String? = nil, target: String? = nil, path: String? = nil, decodedSegments: [String]?? = nil,
            queryItems: [(name: String, value: String)]? = nil, version: HTTPVersion? = nil,
            headers: HTTPHeaders? = nil
        ) -> Head {
            Head(
                method: method ?? self.method, target: target ?? self.target, path: path ?? self.path,
                decodedSegments: decodedSegments ?? self.decodedSegments, queryItems: queryItems ?? self.queryItems,
                version: version ?? self.version, headers: headers ?? self.headers)
        }
    }

    private var head: Head

    // The accessors below read in place (`_read`): a lookup borrows the head's field rather than
    // copying it out. (Callgrind counted the same reference counts per request either way: the
    // saving is the head being one object, not these accessors.)

    /// The method token, case-sensitive, e.g. `GET`.
    public var method: String {
        _read { yield head.parsed.method }
        set { head = head.with(method: newValue) }
    }
    /// The request-target exactly as sent.
    public var target: String {
        _read { yield head.parsed.target }
        set { head = head.with(target: newValue) }
    }
    /// The path part of the target, still percent-encoded.
    public var path: String {
        _read { yield head.path }
        // The segments stay as they were (a plain path's are read from it: kept as decoded ones).
        set { head = head.with(path: newValue, decodedSegments: .some(pathSegments)) }
    }
    /// The path's segments, percent-decoded (`/v1/a%20b` → `["v1", "a b"]`).
    public var pathSegments: [String] {
        get { head.decodedSegments ?? PlainPath.segments(of: head.path) }
        set { head = head.with(decodedSegments: .some(newValue)) }
    }
    /// The decoded segments when the path is not plain (see ``RequestTarget/decodedSegments``):
    /// the router reads a plain path's segments in place.
    var decodedPathSegments: [String]? { head.decodedSegments }
    /// The query's `name=value` items, decoded, in order, duplicates kept.
    public var queryItems: [(name: String, value: String)] {
        _read { yield head.queryItems }
        set { head = head.with(queryItems: newValue) }
    }
    /// The protocol version.
    public var version: HTTPVersion {
        _read { yield head.parsed.version }
        set { head = head.with(version: newValue) }
    }
    /// The header fields in order, duplicates kept.
    public var headers: HTTPHeaders {
        _read { yield head.parsed.headers }
        set { head = head.with(headers: newValue) }
    }
    /// The body, de-chunked; empty when none was sent. Kept beside the head: it is appended to
    /// as it arrives, in place.
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
        head = Head(
            method: method, target: target, path: parsed.path, decodedSegments: parsed.decodedSegments,
            queryItems: parsed.query, version: version, headers: headers)
        self.body = body
    }

    /// A request of a parsed head, which it takes over whole, and no body yet.
    init(head parsed: consuming HTTPRequestHead, target: consuming RequestTarget) {
        head = Head(parsed, path: target.path, decodedSegments: target.decodedSegments, queryItems: target.query)
        body = []
    }

    /// The first query value called `name`, or nil.
    public func query(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }
}
