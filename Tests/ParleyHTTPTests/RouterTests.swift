import Logging
import Testing

@testable import ParleyHTTP

@Suite(.timeLimit(.minutes(10))) struct RouterTests {
    static let context = RequestContext(logger: Logger(label: "test"))

    static func makeRouter() -> Router {
        var router = Router()
        router.inline("GET", "/v1/flows/{id}/versions/{n}") { _, context in
            .text("\(context.parameters["id"] ?? "-")@\(context.parameters.integer("n") ?? -1)")
        }
        router.inline("POST", "/v1/flows/{id}/versions/{n}") { _, _ in .text("posted") }
        router.on("GET", "/slow") { _, _ in .text("async") }
        router.inline("PUT", "/upload", maxBodyBytes: 10) { request, _ in .text("\(request.body.count)") }
        return router
    }

    static func request(_ method: String, _ target: String) throws -> HTTPRequest {
        try HTTPRequest(method: method, target: target)
    }

    /// The on-loop answer through the one route `router` matches for `request`; nil when the
    /// route goes off the loop.
    static func inline(_ router: Router, _ request: HTTPRequest) -> HTTPResponse? {
        guard case .now(let response) = router.route(for: request).respondInline(to: request, context: context)
        else { return nil }
        return response
    }

    @Test func bindsDecodedPathParameters() throws {
        let response = Self.inline(Self.makeRouter(), try Self.request("GET", "/v1/flows/a%2Fb/versions/7"))
        #expect(response.map { String(decoding: $0.body, as: UTF8.self) } == "a/b@7")
    }

    @Test func unknownPathIs404() throws {
        let router = Self.makeRouter()
        let request = try Self.request("GET", "/v1/nothing")
        #expect(Self.inline(router, request)?.status.code == 404)
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let response = Self.inline(Self.makeRouter(), try Self.request("DELETE", "/v1/flows/x/versions/1"))
        #expect(response?.status.code == 405)
        #expect(response?.headers["Allow"] == "GET, HEAD, POST")
    }

    /// `/v1/flows/lint` is its own resource: `GET` on it is not `GET /v1/flows/{id}` with id "lint".
    @Test func literalSegmentsOutrankParameters() throws {
        var router = Router()
        router.inline("GET", "/v1/flows/{id}") { _, context in .text(context.parameters["id"] ?? "-") }
        router.inline("POST", "/v1/flows/lint") { _, _ in .text("lint") }
        router.inline("GET", "/v1/{kind}/lint") { _, _ in .text("kind") }
        for (method, target, allow) in [("GET", "/v1/flows/lint", "POST"), ("DELETE", "/v1/flows/x", "GET, HEAD")] {
            let response = Self.inline(router, try Self.request(method, target))
            #expect(response?.status.code == 405, "\(method) \(target)")
            #expect(response?.headers["Allow"] == allow)
        }
        let lint = Self.inline(router, try Self.request("POST", "/v1/flows/lint"))
        #expect(lint.map { String(decoding: $0.body, as: UTF8.self) } == "lint")
        let flow = Self.inline(router, try Self.request("GET", "/v1/flows/lintel"))
        #expect(flow.map { String(decoding: $0.body, as: UTF8.self) } == "lintel")
        let kind = Self.inline(router, try Self.request("GET", "/v1/rules/lint"))
        #expect(kind.map { String(decoding: $0.body, as: UTF8.self) } == "kind")
    }

    /// Plain and escaped spellings of one path route alike; an empty parameter never matches.
    @Test func plainAndEscapedPathsRouteAlike() throws {
        let router = Self.makeRouter()
        for target in ["/v1/flows/a/versions/1", "/v1/%66lows/a/versions/1", "/v1/flows/%61/versions/1"] {
            let response = Self.inline(router, try Self.request("GET", target))
            #expect(response.map { String(decoding: $0.body, as: UTF8.self) } == "a@1", "\(target)")
        }
        #expect(Self.inline(router, try Self.request("GET", "/v1/flows//versions/1"))?.status.code == 404)
        #expect(Self.inline(router, try Self.request("GET", "/v1/flows/a/versions/1/"))?.status.code == 200)
        let long = "/" + (1...20).map(String.init).joined(separator: "/")
        #expect(Self.inline(router, try Self.request("GET", long))?.status.code == 404)
    }

    @Test func headFallsBackToGet() throws {
        let response = Self.inline(Self.makeRouter(), try Self.request("HEAD", "/v1/flows/f/versions/2"))
        #expect(response?.status.code == 200)
    }

    @Test(arguments: [
        "/v1/flows/../versions/1", "/v1/flows/%2e%2E/versions/1", "/v1/flows/./versions/1", "/v1/flows/f/versions/..",
        "/./v1/flows/f/versions/1",
    ])
    func dotSegmentsNeverRoute(_ target: String) throws {
        let router = Self.makeRouter()
        let request = try Self.request("GET", target)
        #expect(Self.inline(router, request)?.status.code == 404)
    }

    @Test func asyncRoutesGoOffTheLoop() throws {
        #expect(Self.inline(Self.makeRouter(), try Self.request("GET", "/slow")) == nil)
    }

    @Test func asyncPathServesEveryRoute() async throws {
        let router = Self.makeRouter()
        let slow = await router.respond(to: try Self.request("GET", "/slow"), context: Self.context)
        #expect(String(decoding: slow.body, as: UTF8.self) == "async")
        let fast = await router.respond(to: try Self.request("GET", "/v1/flows/a/versions/1"), context: Self.context)
        #expect(String(decoding: fast.body, as: UTF8.self) == "a@1")
    }

    @Test func perRouteBodyLimit() throws {
        let router = Self.makeRouter()
        #expect(router.route(for: try Self.request("PUT", "/upload")).maxBodyBytes == 10)
        #expect(router.route(for: try Self.request("GET", "/slow")).maxBodyBytes == nil)
    }

    @Test func malformedEscapeIsABadRequest() {
        #expect(throws: HTTPError.self) { try HTTPRequest(method: "GET", target: "/a%2") }
    }
}

@Suite(.timeLimit(.minutes(10))) struct HTTPErrorTests {
    @Test func rendersProblemJSON() {
        let error = HTTPError(
            .unprocessableContent, type: "https://parley.dev/problems/validation", title: "Invalid answers",
            detail: "Line 1\n\"quoted\"",
            members: [("errors", .rawJSON("[{\"field\":\"a\"}]")), ("count", .integer(1)), ("ok", .bool(false))])
        let response = error.response
        #expect(response.status.code == 422)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == #"{"type":"https://parley.dev/problems/validation","title":"Invalid answers","status":422,"#
                + #""detail":"Line 1\n\"quoted\"","errors":[{"field":"a"}],"count":1,"ok":false}"#)
    }

    @Test func unexpectedErrorsRevealNothing() throws {
        struct DatabaseError: Error { let secret = "password=hunter2" }
        var logger = Logger(label: "test")
        logger.logLevel = .critical  // the 500 is logged at error; keep test output quiet
        let route = HTTPRoute { _, _ in throw DatabaseError() }
        let request = try HTTPRequest(method: "GET", target: "/")
        guard case .now(let response) = route.respondInline(to: request, context: RequestContext(logger: logger))
        else { return #expect(Bool(false), "answered on the loop") }
        #expect(response.status.code == 500)
        #expect(!String(decoding: response.body, as: UTF8.self).contains("hunter2"))
    }

    @Test func controlCharactersAreEscaped() {
        #expect(JSONText.quoted("a\u{01}b") == #""a\u0001b""#)
    }
}

@Suite(.timeLimit(.minutes(10))) struct ResponseEncoderTests {
    static let date = Array("Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n".utf8)

    static func encode(_ response: HTTPResponse, keepAlive: Bool = true, headOnly: Bool = false) -> String {
        var queue = OutputQueue()
        ResponseEncoder.encode(
            response, into: &queue, date: date, keepAlive: keepAlive, announceKeepAlive: false, headOnly: headOnly)
        var output: [UInt8] = []
        _ = queue.drain { first, _ in
            output.append(contentsOf: first)
            return .bytes(first.count)
        }
        return String(decoding: output, as: UTF8.self)
    }

    @Test func framesWithContentLengthAndDropsResponderFraming() {
        let response = HTTPResponse(
            status: .ok, headers: ["Content-Length": "999", "X-A": "1", "connection": "keep-alive"],
            body: Array("hi".utf8))
        #expect(
            Self.encode(response, keepAlive: false)
                == "HTTP/1.1 200 OK\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nX-A: 1\r\nConnection: close\r\n"
                + "Content-Length: 2\r\n\r\nhi")
    }

    @Test func headKeepsLengthButSendsNoBody() {
        #expect(
            Self.encode(HTTPResponse(body: Array("hello".utf8)), headOnly: true).hasSuffix("Content-Length: 5\r\n\r\n"))
    }

    @Test func noContentHasNoLength() {
        #expect(!Self.encode(HTTPResponse(status: .noContent)).contains("Content-Length"))
    }

    @Test func sharedFieldsEncodeAsTheyWouldUnshared() {
        let fields: HTTPHeaders = ["ETag": "\"e\"", "content-length": "7", "Cache-Control": "max-age=60"]
        var plain = fields
        var shared = fields.sharingEncoding()
        #expect(shared == plain && shared.count == 3)
        plain.set("X-Request-Id", "r1")
        shared.set("X-Request-Id", "r1")
        let body = Array("hi".utf8)
        let expected = Self.encode(HTTPResponse(headers: plain, body: body))
        #expect(Self.encode(HTTPResponse(headers: shared, body: body)) == expected)
        #expect(expected.contains("ETag: \"e\"\r\nCache-Control: max-age=60\r\nX-Request-Id: r1\r\n"))
        #expect(!expected.contains("content-length"))
        #expect(shared["etag"] == "\"e\"" && shared["X-Request-Id"] == "r1" && shared == plain)
        // Replacing a shared field drops the shared encoding, not the field order of the rest.
        shared.set("ETag", "\"f\"")
        plain.set("ETag", "\"f\"")
        #expect(shared.fields.map(\.name) == ["content-length", "Cache-Control", "X-Request-Id", "ETag"])
        #expect(
            Self.encode(HTTPResponse(headers: shared, body: body))
                == Self.encode(HTTPResponse(headers: plain, body: body)))
        let repeated = HTTPHeaders([HTTPField(name: "A", value: "1")]).sharingEncoding()
        var twice = repeated
        twice.add("a", "2")
        #expect(twice.single("A").value == "1" && twice.single("A").repeated && !repeated.single("A").repeated)
        #expect(twice.values(for: "A") == ["1", "2"] && twice.occurrences(of: "a") == 2)
    }

    @Test func sharedFieldsAreFoundInAnyCaseAndARequestIdIsAddedWithoutReadingThem() {
        let names = [
            "Content-Type", "Cache-Control", "ETag", "Vary", "Content-Language", "Parley-Flow-Version", "Parley-Served",
            "Link", "Last-Modified", "Retry-After", "Location",
        ]
        let encoded = HTTPEncodedFields(names.map { HTTPField(name: $0, value: "v") })
        for name in names {
            #expect(
                encoded.mayContain(name) && encoded.mayContain(name.lowercased())
                    && encoded.mayContain(name.uppercased()))
        }
        // A cached screen's fields: adding the request id skips them unread.
        #expect(!encoded.mayContain("X-Request-Id"))
        #expect(!encoded.mayContain(""))
    }

    @Test func dateLineIsIMFFixdate() {
        #expect(
            String(decoding: DateCache.format(784_111_777), as: UTF8.self) == "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n")
    }
}
