import Testing

@testable import ParleyHTTP

/// Parses `text` as a complete head plus framing, returning the status it fails with (nil when valid).
func headStatus(_ text: String, limits: HTTPParserLimits = HTTPParserLimits()) -> Int? {
    do {
        let bytes = Array(text.utf8)
        let result = try bytes.withUnsafeBufferPointer { buffer throws(HTTPParseError) in
            try HTTPHeadParser(limits: limits).parse(buffer)
        }
        guard case .complete(let head, _) = result else { return -1 }
        _ = try RequestFraming(head: head)
        _ = try RequestTarget(head.target)
        return nil
    } catch {
        return error.status
    }
}

/// One request head and the status the server must answer with (nil: accepted).
struct HeadCase: CustomTestStringConvertible, Sendable {
    let name: String
    let raw: String
    let status: Int?
    var testDescription: String { name }
}

@Suite(.timeLimit(.minutes(10))) struct HTTPHeadParserTests {
    static let h = "Host: example.com\r\n"

    static let cases: [HeadCase] = [
        // Request line (RFC 9112 §3).
        HeadCase(name: "simple GET", raw: "GET / HTTP/1.1\r\n\(h)\r\n", status: nil),
        HeadCase(name: "leading empty line ignored", raw: "\r\nGET / HTTP/1.1\r\n\(h)\r\n", status: nil),
        HeadCase(name: "extension method token", raw: "PURGE /x HTTP/1.1\r\n\(h)\r\n", status: nil),
        HeadCase(name: "method with invalid char", raw: "GE(T / HTTP/1.1\r\n\(h)\r\n", status: 400),
        HeadCase(name: "empty method", raw: " / HTTP/1.1\r\n\(h)\r\n", status: 400),
        HeadCase(name: "double space after method", raw: "GET  / HTTP/1.1\r\n\(h)\r\n", status: 400),
        HeadCase(name: "tab separator", raw: "GET\t/ HTTP/1.1\r\n\(h)\r\n", status: 400),
        HeadCase(name: "missing version", raw: "GET /\r\n\(h)\r\n", status: 400),
        HeadCase(name: "trailing space after version", raw: "GET / HTTP/1.1 \r\n\(h)\r\n", status: 400),
        HeadCase(name: "lowercase protocol", raw: "GET / http/1.1\r\n\(h)\r\n", status: 400),
        HeadCase(name: "version with two digits", raw: "GET / HTTP/1.10\r\n\(h)\r\n", status: 400),
        HeadCase(name: "HTTP/2.0 is 505", raw: "GET / HTTP/2.0\r\n\(h)\r\n", status: 505),
        HeadCase(name: "HTTP/0.9 is 505", raw: "GET / HTTP/0.9\r\n\(h)\r\n", status: 505),
        HeadCase(name: "HTTP/3.0 is 505", raw: "GET / HTTP/3.0\r\n\(h)\r\n", status: 505),
        HeadCase(name: "HTTP/1.2 served as 1.1", raw: "GET / HTTP/1.2\r\n\(h)\r\n", status: nil),
        HeadCase(name: "HTTP/1.0 without Host", raw: "GET / HTTP/1.0\r\n\r\n", status: nil),
        HeadCase(name: "bare LF after request line", raw: "GET / HTTP/1.1\n\(h)\r\n", status: 400),
        HeadCase(name: "bare CR in request line", raw: "GET /a\rb HTTP/1.1\r\n\(h)\r\n", status: 400),
        HeadCase(name: "NUL in target", raw: "GET /a\0b HTTP/1.1\r\n\(h)\r\n", status: 400),
        HeadCase(name: "non-ASCII target byte", raw: "GET /ä HTTP/1.1\r\n\(h)\r\n", status: 400),
        HeadCase(name: "relative target", raw: "GET index.html HTTP/1.1\r\n\(h)\r\n", status: 400),
        HeadCase(name: "absolute-form target", raw: "GET http://example.com/a?b=1 HTTP/1.1\r\n\(h)\r\n", status: nil),
        HeadCase(name: "asterisk for OPTIONS", raw: "OPTIONS * HTTP/1.1\r\n\(h)\r\n", status: nil),
        HeadCase(name: "asterisk for GET", raw: "GET * HTTP/1.1\r\n\(h)\r\n", status: 400),
        HeadCase(name: "CONNECT is 501", raw: "CONNECT example.com:443 HTTP/1.1\r\n\(h)\r\n", status: 501),
        HeadCase(name: "malformed percent escape", raw: "GET /a%zz HTTP/1.1\r\n\(h)\r\n", status: 400),
        HeadCase(name: "truncated percent escape", raw: "GET /a% HTTP/1.1\r\n\(h)\r\n", status: 400),
        HeadCase(name: "escape decoding to invalid UTF-8", raw: "GET /%ff HTTP/1.1\r\n\(h)\r\n", status: 400),
        HeadCase(name: "malformed escape in query", raw: "GET /?a=%g1 HTTP/1.1\r\n\(h)\r\n", status: 400),
        // Header fields (RFC 9112 §5, RFC 9110 §5.5).
        HeadCase(name: "space before colon", raw: "GET / HTTP/1.1\r\nHost : x\r\n\r\n", status: 400),
        HeadCase(name: "tab before colon", raw: "GET / HTTP/1.1\r\nHost\t: x\r\n\r\n", status: 400),
        HeadCase(name: "obs-fold", raw: "GET / HTTP/1.1\r\n\(h)X-A: 1\r\n 2\r\n\r\n", status: 400),
        HeadCase(name: "obs-fold with tab", raw: "GET / HTTP/1.1\r\n\(h)X-A: 1\r\n\t2\r\n\r\n", status: 400),
        HeadCase(name: "bare CR in value", raw: "GET / HTTP/1.1\r\n\(h)X-A: a\rb\r\n\r\n", status: 400),
        HeadCase(name: "NUL in value", raw: "GET / HTTP/1.1\r\n\(h)X-A: a\0b\r\n\r\n", status: 400),
        HeadCase(name: "DEL in value", raw: "GET / HTTP/1.1\r\n\(h)X-A: a\u{7F}b\r\n\r\n", status: 400),
        HeadCase(name: "bare LF ending a field", raw: "GET / HTTP/1.1\r\n\(h)X-A: 1\n\r\n", status: 400),
        HeadCase(name: "bare LF ending the section", raw: "GET / HTTP/1.1\r\n\(h)\n", status: 400),
        HeadCase(name: "missing colon", raw: "GET / HTTP/1.1\r\n\(h)X-A 1\r\n\r\n", status: 400),
        HeadCase(name: "empty field name", raw: "GET / HTTP/1.1\r\n\(h): 1\r\n\r\n", status: 400),
        HeadCase(name: "invalid name char", raw: "GET / HTTP/1.1\r\n\(h)X[A]: 1\r\n\r\n", status: 400),
        HeadCase(name: "empty value allowed", raw: "GET / HTTP/1.1\r\n\(h)X-A:\r\n\r\n", status: nil),
        HeadCase(name: "obs-text in value allowed", raw: "GET / HTTP/1.1\r\n\(h)X-A: caf\u{E9}\r\n\r\n", status: nil),
        // Host (RFC 9112 §3.2).
        HeadCase(name: "HTTP/1.1 without Host", raw: "GET / HTTP/1.1\r\n\r\n", status: 400),
        HeadCase(name: "two Host fields", raw: "GET / HTTP/1.1\r\n\(h)\(h)\r\n", status: 400),
        HeadCase(name: "Host with space inside", raw: "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", status: 400),
        HeadCase(name: "empty Host allowed", raw: "GET / HTTP/1.1\r\nHost:\r\n\r\n", status: nil),
        // Content-Length and Transfer-Encoding (RFC 9112 §6).
        HeadCase(name: "Content-Length", raw: "POST / HTTP/1.1\r\n\(h)Content-Length: 5\r\n\r\n", status: nil),
        HeadCase(
            name: "identical repeated Content-Length",
            raw: "POST / HTTP/1.1\r\n\(h)Content-Length: 5\r\nContent-Length: 5\r\n\r\n", status: nil),
        HeadCase(
            name: "identical Content-Length list", raw: "POST / HTTP/1.1\r\n\(h)Content-Length: 5, 5\r\n\r\n",
            status: nil),
        HeadCase(
            name: "conflicting Content-Length",
            raw: "POST / HTTP/1.1\r\n\(h)Content-Length: 5\r\nContent-Length: 6\r\n\r\n", status: 400),
        HeadCase(
            name: "conflicting Content-Length list", raw: "POST / HTTP/1.1\r\n\(h)Content-Length: 5, 6\r\n\r\n",
            status: 400),
        HeadCase(
            name: "negative Content-Length", raw: "POST / HTTP/1.1\r\n\(h)Content-Length: -1\r\n\r\n", status: 400),
        HeadCase(
            name: "signed Content-Length", raw: "POST / HTTP/1.1\r\n\(h)Content-Length: +5\r\n\r\n", status: 400),
        HeadCase(
            name: "hex Content-Length", raw: "POST / HTTP/1.1\r\n\(h)Content-Length: 0x5\r\n\r\n", status: 400),
        HeadCase(name: "empty Content-Length", raw: "POST / HTTP/1.1\r\n\(h)Content-Length:\r\n\r\n", status: 400),
        HeadCase(
            name: "huge Content-Length is 413",
            raw: "POST / HTTP/1.1\r\n\(h)Content-Length: 99999999999999999999999\r\n\r\n", status: 413),
        HeadCase(
            name: "chunked", raw: "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: chunked\r\n\r\n", status: nil),
        HeadCase(
            name: "chunked in other case", raw: "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: Chunked\r\n\r\n",
            status: nil),
        HeadCase(
            name: "Content-Length with Transfer-Encoding",
            raw: "POST / HTTP/1.1\r\n\(h)Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", status: 400),
        HeadCase(
            name: "unknown transfer coding is 501",
            raw: "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: gzip, chunked\r\n\r\n", status: 501),
        HeadCase(
            name: "identity coding is 501", raw: "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: identity\r\n\r\n",
            status: 501),
        HeadCase(
            name: "chunked twice", raw: "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: chunked, chunked\r\n\r\n",
            status: 400),
        HeadCase(
            name: "Transfer-Encoding in HTTP/1.0", raw: "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
            status: 400),
        HeadCase(
            name: "empty coding element", raw: "POST / HTTP/1.1\r\n\(h)Transfer-Encoding: ,chunked\r\n\r\n",
            status: 400),
        // Expect (RFC 9110 §10.1.1).
        HeadCase(
            name: "100-continue", raw: "POST / HTTP/1.1\r\n\(h)Expect: 100-continue\r\nContent-Length: 1\r\n\r\n",
            status: nil),
        HeadCase(name: "other expectation is 417", raw: "GET / HTTP/1.1\r\n\(h)Expect: 200-ok\r\n\r\n", status: 417),
    ]

    @Test(arguments: cases)
    func parsesOrRejects(_ testCase: HeadCase) {
        #expect(headStatus(testCase.raw) == testCase.status)
    }

    @Test func keepsDuplicateHeadersInOrder() throws {
        let head = try Self.head("GET /a HTTP/1.1\r\n\(Self.h)Accept: a\r\nX-B: 1\r\naccept: b\r\n\r\n")
        #expect(head.headers.values(for: "ACCEPT") == ["a", "b"])
        #expect(head.headers.count == 4)
        #expect(head.headers["x-b"] == "1")
    }

    @Test func trimsOptionalWhitespaceAroundValues() throws {
        let head = try Self.head("GET / HTTP/1.1\r\n\(Self.h)X-A: \t spaced out \t\r\n\r\n")
        #expect(head.headers["X-A"] == "spaced out")
    }

    @Test func incompleteHeadNeedsMoreBytes() {
        #expect(headStatus("GET / HTTP/1.1\r\nHost: x\r\n") == -1)
        #expect(headStatus("GET / HT") == -1)
    }

    @Test func requestLineLimitIs414() {
        var limits = HTTPParserLimits()
        limits.maxRequestLineBytes = 32
        #expect(
            headStatus("GET /\(String(repeating: "a", count: 40)) HTTP/1.1\r\n\(Self.h)\r\n", limits: limits) == 414)
        #expect(headStatus("GET /\(String(repeating: "a", count: 40))", limits: limits) == 414)
        #expect(headStatus("GET /short HTTP/1.1\r\n\(Self.h)\r\n", limits: limits) == nil)
    }

    @Test func headerBytesLimitIs431() {
        var limits = HTTPParserLimits()
        limits.maxHeaderBytes = 64
        let big = "X-Big: \(String(repeating: "b", count: 80))\r\n"
        #expect(headStatus("GET / HTTP/1.1\r\n\(Self.h)\(big)\r\n", limits: limits) == 431)
        #expect(headStatus("GET / HTTP/1.1\r\n\(Self.h)\(big)", limits: limits) == 431)
    }

    @Test func headerCountLimitIs431() {
        var limits = HTTPParserLimits()
        limits.maxHeaderCount = 3
        let fields = (0..<4).map { "X-\($0): v\r\n" }.joined()
        #expect(headStatus("GET / HTTP/1.1\r\n\(fields)\r\n", limits: limits) == 431)
        #expect(headStatus("GET / HTTP/1.1\r\n\(Self.h)X-1: v\r\n\r\n", limits: limits) == nil)
    }

    @Test func reportsConsumedBytesForPipelining() throws {
        let first = "GET /1 HTTP/1.1\r\n\(Self.h)\r\n"
        let bytes = Array((first + "GET /2 HTTP/1.1\r\n").utf8)
        let result = try bytes.withUnsafeBufferPointer { try HTTPHeadParser().parse($0) }
        guard case .complete(let head, let consumed) = result else {
            Issue.record("expected a complete head")
            return
        }
        #expect(head.target == "/1")
        #expect(consumed == first.utf8.count)
    }

    static func head(_ text: String) throws -> HTTPRequestHead {
        let bytes = Array(text.utf8)
        let result = try bytes.withUnsafeBufferPointer { try HTTPHeadParser().parse($0) }
        guard case .complete(let head, _) = result else { throw HTTPParseError.badRequest("incomplete") }
        return head
    }
}
