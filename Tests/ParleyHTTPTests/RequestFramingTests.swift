import Testing

@testable import ParleyHTTP

@Suite(.timeLimit(.minutes(10))) struct RequestFramingTests {
    static func framing(_ text: String) throws -> RequestFraming {
        try RequestFraming(head: HTTPHeadParserTests.head(text))
    }

    @Test func http11KeepsAliveByDefault() throws {
        #expect(try Self.framing("GET / HTTP/1.1\r\nHost: a\r\n\r\n").keepAlive)
    }

    @Test func http11ConnectionCloseCloses() throws {
        #expect(try !Self.framing("GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, Close\r\n\r\n").keepAlive)
    }

    @Test func http10ClosesByDefault() throws {
        #expect(try !Self.framing("GET / HTTP/1.0\r\n\r\n").keepAlive)
    }

    @Test func http10KeepAliveOptIn() throws {
        #expect(try Self.framing("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").keepAlive)
    }

    @Test func bodyKinds() throws {
        #expect(try Self.framing("GET / HTTP/1.1\r\nHost: a\r\n\r\n").body == .none)
        #expect(try Self.framing("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n").body == .none)
        #expect(try Self.framing("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\n\r\n").body == .length(12))
        #expect(try Self.framing("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n").body == .chunked)
    }

    @Test func expectContinueOnlyWithABody() throws {
        let withBody = "POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 3\r\n\r\n"
        #expect(try Self.framing(withBody).expectContinue)
        #expect(try !Self.framing("GET / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n").expectContinue)
    }
}

@Suite(.timeLimit(.minutes(10))) struct ChunkedDecoderTests {
    /// Decodes `text` fed in pieces of `step` bytes; returns the body or the failing status.
    static func decode(_ text: String, step: Int = .max, limit: Int = 1 << 20) -> Result<String, HTTPParseError> {
        var decoder = ChunkedDecoder(limits: HTTPParserLimits(), maxBodyBytes: limit)
        var body: [UInt8] = []
        var pending: [UInt8] = []
        var remaining = Array(text.utf8)[...]
        do {
            while !decoder.isComplete {
                guard !remaining.isEmpty else { return .failure(.badRequest("incomplete")) }
                let piece = remaining.prefix(step)
                remaining = remaining.dropFirst(piece.count)
                pending.append(contentsOf: piece)
                let consumed = try pending.withUnsafeBufferPointer { bytes throws(HTTPParseError) in
                    try decoder.decode(bytes, into: &body)
                }
                pending.removeFirst(consumed)
            }
        } catch {
            return .failure(error)
        }
        return .success(String(decoding: body, as: UTF8.self))
    }

    @Test(arguments: [1, 2, 3, 7, Int.max])
    func decodesInAnyPieces(step: Int) {
        let text = "5\r\nhello\r\n7;name=value;flag\r\n, world\r\n0\r\nX-Trailer: yes\r\n\r\n"
        #expect(Self.decode(text, step: step) == .success("hello, world"))
    }

    @Test func extensionsWithQuotedStringsAndWhitespace() {
        #expect(Self.decode("3 ; a = \"q\\\"x\" ;b\r\nabc\r\n0\r\n\r\n") == .success("abc"))
    }

    @Test func uppercaseHexSize() {
        #expect(Self.decode("A\r\n0123456789\r\n0\r\n\r\n") == .success("0123456789"))
    }

    @Test(arguments: [
        "g\r\nabc\r\n0\r\n\r\n",  // not hex
        "\r\nabc\r\n0\r\n\r\n",  // empty size
        "3\r\nabcX\r\n0\r\n\r\n",  // data not followed by CRLF
        "3\nabc\r\n0\r\n\r\n",  // bare LF
        "3;\r\nabc\r\n0\r\n\r\n",  // extension without name
        "3;a=\"open\r\nabc\r\n0\r\n\r\n",  // unterminated quoted string
        "3 x\r\nabc\r\n0\r\n\r\n",  // junk after size
        "0\r\nBad Trailer: x\r\n\r\n",  // malformed trailer
        "0\r\nX: a\0b\r\n\r\n",  // NUL in trailer
    ])
    func rejectsMalformedChunks(_ text: String) {
        guard case .failure(let error) = Self.decode(text) else {
            Issue.record("accepted \(text.debugDescription)")
            return
        }
        #expect(error.status == 400)
    }

    @Test func bodyOverLimitIs413() {
        #expect(Self.decode("5\r\nhello\r\n5\r\nworld\r\n0\r\n\r\n", limit: 8) == .failure(.bodyTooLarge))
        #expect(Self.decode("ffffffffffffffffff\r\n") == .failure(.bodyTooLarge))
    }
}
