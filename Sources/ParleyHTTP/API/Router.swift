/// Dispatches requests by method and path pattern (`/v1/flows/{id}/versions/{n}`); itself a
/// responder. No route matches a path with `.`/`..` segments; a path that matches under
/// other methods gets 405 with `Allow`; HEAD falls back to the GET route (RFC 9110 §9.3.2).
///
/// A literal segment names its own resource: when `/v1/flows/lint` and `/v1/flows/{id}` both
/// match, only the patterns with a literal earliest are considered, so `GET /v1/flows/lint` is a
/// 405 whose `Allow` lists the methods of `/v1/flows/lint` (RFC 9110 §15.5.6), never `getFlow`.
public struct Router: HTTPResponder {
    /// A class, so walking the table shares each route instead of copying (and retaining) its
    /// strings, arrays and responder once per route per request.
    final class Route: Sendable {
        let method: String
        let pattern: RoutePattern
        let maxBodyBytes: Int?
        let answer: Answer
        /// The composed route of a fixed answer, read without copying the answer's two routes.
        let fixed: HTTPRoute?

        init(method: String, pattern: RoutePattern, maxBodyBytes: Int?, answer: Answer) {
            self.method = method
            self.pattern = pattern
            self.maxBodyBytes = maxBodyBytes
            self.answer = answer
            if case .fixed(_, let composed) = answer { fixed = composed } else { fixed = nil }
        }

        /// This route with `middleware` (outermost first) composed around a fixed answer.
        func composed(_ middleware: [any HTTPMiddleware<RequestContext>]) -> Route {
            guard case .fixed(let base, _) = answer else { return self }
            return Route(
                method: method, pattern: pattern, maxBodyBytes: maxBodyBytes,
                answer: .fixed(base: base, composed: Router.composed(base, middleware)))
        }
    }

    /// How a matched route answers.
    enum Answer: Sendable {
        /// The same route for every request (a handler and its limit): the router's middleware
        /// is composed around it once, when it is added or the router wrapped, never per request.
        case fixed(base: HTTPRoute, composed: HTTPRoute)
        /// A responder asked per request; the router's middleware is composed around its answer.
        case responder(any HTTPResponder)
    }

    /// Routes by their number of segments (a pattern matches only paths with as many), each list
    /// most specific first: a request is compared only with the routes that could match it.
    private var routes: [[Route]] = [] {
        didSet { candidates = Candidates(routes) }
    }
    /// The same routes, flat and unretained, for matching: walking ``routes`` retained and
    /// released the inner list, each route and its pattern, about ten reference counts a
    /// request on objects every event loop shares (so their cache lines moved between cores).
    private var candidates = Candidates([])
    /// Middleware around every route, 404 and 405 included, outermost first.
    private var middleware: [any HTTPMiddleware<RequestContext>] = []

    /// An empty router: every request gets 404.
    public init() {}

    /// Routes `method` requests whose path matches `pattern` to `responder`, asked for every
    /// request; `maxBodyBytes` overrides the server's body limit for this route.
    public mutating func add(
        _ method: String, _ pattern: String, maxBodyBytes: Int? = nil, responder: any HTTPResponder
    ) {
        insert(
            Route(
                method: method, pattern: RoutePattern(pattern), maxBodyBytes: maxBodyBytes,
                answer: .responder(responder)))
    }

    /// Routes `method` requests whose path matches `pattern` to `route`, the same for every
    /// request (its handler and body limit; the match adds the parameters). The router's
    /// middleware is composed around it here, once.
    public mutating func add(_ method: String, _ pattern: String, maxBodyBytes: Int? = nil, route: HTTPRoute) {
        insert(
            Route(
                method: method, pattern: RoutePattern(pattern), maxBodyBytes: maxBodyBytes,
                answer: .fixed(base: route, composed: Self.composed(route, middleware))))
    }

    private mutating func insert(_ route: Route) {
        let count = route.pattern.segments.count
        while routes.count <= count { routes.append([]) }
        // Kept most specific first (stable among equals), so `match` can stop at the first route
        // that matches with the request's method, and after the block of equally specific ones.
        let index =
            routes[count].firstIndex { RoutePattern.lessSpecific($0.pattern, route.pattern) }
            ?? routes[count].endIndex
        routes[count].insert(route, at: index)
    }

    /// Routes to a closure that may suspend or block; it runs off the event loop.
    public mutating func on(
        _ method: String, _ pattern: String, maxBodyBytes: Int? = nil,
        handler: @escaping @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse
    ) {
        add(
            method, pattern, maxBodyBytes: maxBodyBytes,
            route: HTTPRoute { request, context in
                .offLoop { try await handler(request, context) }
            })
    }

    /// Routes to a closure that neither blocks nor suspends; it runs inline on the event loop.
    public mutating func inline(
        _ method: String, _ pattern: String, maxBodyBytes: Int? = nil,
        handler: @escaping @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse
    ) {
        add(
            method, pattern, maxBodyBytes: maxBodyBytes,
            route: HTTPRoute { request, context in
                .now(try handler(request, context))
            })
    }

    /// This router with `middleware` around every route, outside any it already has, 404s and
    /// 405s included (Hummingbird's router middleware). Composed once per route here, so a
    /// request pays no composition; routes added later get it too.
    public func wrapped(in middleware: some HTTPMiddleware<RequestContext>) -> Router {
        var wrapped = self
        wrapped.middleware.insert(middleware, at: 0)
        let layers = wrapped.middleware
        wrapped.routes = routes.map { $0.map { $0.composed(layers) } }
        return wrapped
    }

    /// The one match for `request`: the route's handler, parameters and body limit (the route's,
    /// else its responder's); 404 and 405 answer on the loop.
    public func route(for request: HTTPRequest) -> HTTPRoute {
        let route: Route
        let parameters: PathParameters
        do { (route, parameters) = try match(request) } catch {
            return Self.composed(.failing(error), middleware)
        }
        var matched: HTTPRoute
        if let fixed = route.fixed {
            matched = fixed
        } else if case .responder(let responder) = route.answer {
            matched = Self.composed(responder.route(for: request), middleware)
        } else {
            preconditionFailure("a route is fixed or asks its responder")
        }
        matched.parameters = parameters
        if let limit = route.maxBodyBytes { matched.maxBodyBytes = limit }
        return matched
    }

    /// `route` with `middleware` (outermost first) around its handler.
    static func composed(_ route: HTTPRoute, _ middleware: [any HTTPMiddleware<RequestContext>]) -> HTTPRoute {
        guard !middleware.isEmpty else { return route }
        var composed = route
        (composed.handler, composed.rendersErrors) = HTTPMiddlewareChain.composed(
            middleware, around: route.handler, handlerRendersErrors: route.rendersErrors)
        return composed
    }

    private func match(_ request: HTTPRequest) throws(HTTPError) -> (Route, PathParameters) {
        if let segments = request.decodedPathSegments { return try match(request, decoded: segments) }
        // A plain path: its segments are compared where they lie in the path's bytes.
        let found = request.path.utf8.withContiguousStorageIfAvailable { bytes in
            let path = PlainPath(bytes)
            return Result { () throws(HTTPError) in
                // RFC 3986 §5.2.4: dot-segments are never resolved here, so they never name a route.
                if path.hasDotSegment { throw .notFound() }
                guard path.isIndexed else { return try match(request, decoded: request.pathSegments) }
                return try match(request, segments: path.count) { $0.match(path) }
            }
        }
        guard let found else { return try match(request, decoded: request.pathSegments) }
        return try found.get()
    }

    /// The match for decoded segments (a path with escapes, or one too long to index).
    private func match(_ request: HTTPRequest, decoded segments: [String]) throws(HTTPError) -> (Route, PathParameters)
    {
        // RFC 3986 §5.2.4: dot-segments are never resolved here, so they never name a route.
        if segments.contains(where: { $0.utf8.count <= 2 && ($0 == "." || $0 == "..") }) { throw .notFound() }
        return try match(request, segments: segments.count) { $0.match(segments) }
    }

    /// The route among those of `count` segments that `matches` binds, for the request's method.
    private func match(
        _ request: HTTPRequest, segments count: Int, _ matches: (RoutePattern) -> PathParameters?
    ) throws(HTTPError) -> (Route, PathParameters) {
        let block = candidates.block(segments: count)
        var getFallback: (Int, PathParameters)?
        var allowed: [String] = []
        var mostSpecific: UInt64?
        for index in block {
            // Read in place, unretained: `routes` keeps every route alive for the router's life.
            let probe = candidates.routes[index]._withUnsafeGuaranteedRef { route -> Probe in
                // Routes are sorted most specific first: past the block of the first match, every
                // route is less specific and cannot be the answer.
                if let best = mostSpecific, best != route.pattern.literals { return .stop }
                guard let parameters = matches(route.pattern) else { return .skip }
                return .match(
                    parameters, literals: route.pattern.literals, sameMethod: route.method == request.method,
                    get: route.method == "GET")
            }
            switch probe {
            case .stop: break
            case .skip: continue
            case .match(let parameters, let literals, let sameMethod, let get):
                mostSpecific = literals
                if sameMethod { return (candidates.routes[index].takeUnretainedValue(), parameters) }
                if request.method == "HEAD" && get && getFallback == nil { getFallback = (index, parameters) }
                allowed.append(candidates.routes[index]._withUnsafeGuaranteedRef { $0.method })
                continue
            }
            break
        }
        if let (index, parameters) = getFallback { return (candidates.routes[index].takeUnretainedValue(), parameters) }
        if allowed.isEmpty { throw .notFound() }
        if allowed.contains("GET") { allowed.append("HEAD") }
        throw .methodNotAllowed(allowed: Array(Set(allowed)).sorted())
    }

    /// What comparing a request with one route found.
    private enum Probe {
        /// Past the most specific matches: no later route can be the answer.
        case stop
        /// Not this route.
        case skip
        /// The path matches (whatever the method).
        case match(PathParameters, literals: UInt64, sameMethod: Bool, get: Bool)
    }

    /// ``routes`` flattened: one list of unretained references, with where each segment count's
    /// block starts. Valid while ``routes`` holds the same routes (it is rebuilt on every change).
    private struct Candidates: Sendable {
        let routes: [Unmanaged<Route>]
        /// `starts[n]..<starts[n + 1]`: the routes of `n` segments.
        let starts: [Int]

        init(_ lists: [[Route]]) {
            var routes: [Unmanaged<Route>] = []
            var starts: [Int] = []
            for list in lists {
                starts.append(routes.count)
                routes.append(contentsOf: list.map { Unmanaged.passUnretained($0) })
            }
            starts.append(routes.count)
            self.routes = routes
            self.starts = starts
        }

        /// The indices of the routes with `segments` segments (empty past the longest).
        func block(segments: Int) -> Range<Int> {
            segments + 1 < starts.count ? starts[segments]..<starts[segments + 1] : 0..<0
        }
    }
}

/// A parsed route pattern: literal segments and `{name}` parameters. A class, so matching
/// reads its arrays in place: a struct read out of its route copied (and retained) four arrays
/// per route compared.
final class RoutePattern: Sendable {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]

    init(_ pattern: String) {
        segments = pattern.split(separator: "/").map { part in
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(String(part))
        }
        precondition(segments.count <= 64, "a route pattern has at most 64 segments")
        var literals: UInt64 = 0
        for (index, segment) in segments.enumerated() {
            if case .literal = segment { literals |= 1 << UInt64(index) }
        }
        self.literals = literals
        names = segments.map { segment in
            switch segment {
            case .literal(let name), .parameter(let name): name
            }
        }
        lengths = names.map(\.utf8.count)
        var literalBytes: [UInt8] = []
        var literalStarts: [Int] = []
        for (index, name) in names.enumerated() {
            literalStarts.append(literalBytes.count)
            if literals & (1 << UInt64(index)) != 0 { literalBytes.append(contentsOf: name.utf8) }
        }
        self.literalBytes = literalBytes
        self.literalStarts = literalStarts
        var lengthMask: UInt64 = 0
        var lengthSignature: UInt64 = 0
        for index in 0..<min(segments.count, PlainPath.maxSegments) where literals & (1 << UInt64(index)) != 0 {
            lengthMask |= 0xF << UInt64(4 * index)
            lengthSignature |= UInt64(min(lengths[index], 15)) << UInt64(4 * index)
        }
        self.lengthMask = lengthMask
        self.lengthSignature = lengthSignature
    }

    /// The four-bit lengths of the literal segments, as ``PlainPath/lengthSignature`` packs a
    /// path's, and the mask of their nibbles: a plain path whose literal lengths differ is
    /// refused by one comparison, before any byte is read.
    private let lengthMask: UInt64
    private let lengthSignature: UInt64

    /// Every literal segment's bytes, one after another: compared with a plain path's bytes in
    /// place (``match(_:)-(PlainPath)``), one array rather than one per segment.
    private let literalBytes: [UInt8]
    /// Where segment `i`'s literal starts in ``literalBytes`` (its length is `lengths[i]`).
    private let literalStarts: [Int]

    /// Each segment's literal or parameter name: matching indexes these instead of copying
    /// `Segment` enums out of ``segments``.
    let names: [String]
    /// The UTF-8 length of each name.
    let lengths: [Int]

    /// Which segments are literals: bit `i` for segment `i`. Compared left to right (lowest bit
    /// first), a literal beats a parameter. One word, so comparing two routes' kinds of segments
    /// reads no array.
    let literals: UInt64

    /// Whether `lhs` is less specific than `rhs` (the first differing segment is a parameter in
    /// `lhs`), for patterns of as many segments.
    static func lessSpecific(_ lhs: RoutePattern, _ rhs: RoutePattern) -> Bool {
        let differing = lhs.literals ^ rhs.literals
        guard differing != 0 else { return lhs.segments.count < rhs.segments.count }
        return lhs.literals & (differing & (0 &- differing)) == 0
    }

    /// Whether segment `index` is a literal.
    func isLiteral(_ index: Int) -> Bool { literals & (1 << UInt64(index)) != 0 }

    /// The bound parameters when the plain path `path` matches, else nil: literals are compared
    /// byte by byte where they lie, and only parameters become strings.
    func match(_ path: PlainPath) -> PathParameters? {
        guard path.count == segments.count, path.lengthSignature & lengthMask == lengthSignature else { return nil }
        // Exact lengths (the signature caps them at 15), as for decoded segments.
        for index in 0..<segments.count where isLiteral(index) && lengths[index] != path.length(index) {
            return nil
        }
        for index in 0..<segments.count {
            if isLiteral(index) {
                let literal = literalStarts[index]
                let start = path.start(index)
                for offset in 0..<lengths[index] where literalBytes[literal + offset] != path.body[start + offset] {
                    return nil
                }
            } else if path.length(index) == 0 {
                return nil
            }
        }
        var parameters = PathParameters()
        for index in 0..<segments.count where !isLiteral(index) { parameters.bind(names[index], path.string(index)) }
        return parameters
    }

    /// The bound parameters when `path` (decoded segments) matches, else nil. Literals are
    /// checked first, so a route that does not match binds nothing.
    func match(_ path: [String]) -> PathParameters? {
        guard path.count == segments.count else { return nil }
        // Every literal's length before any literal's bytes: most routes that differ differ in
        // the length of some literal, and a count is O(1), so most are refused without comparing
        // a string.
        for index in path.indices where isLiteral(index) && lengths[index] != path[index].utf8.count {
            return nil
        }
        for index in path.indices where isLiteral(index) && names[index] != path[index] { return nil }
        var parameters = PathParameters()
        for index in path.indices where !isLiteral(index) {
            if path[index].isEmpty { return nil }
            parameters.bind(names[index], path[index])
        }
        return parameters
    }
}
