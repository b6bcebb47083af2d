import Testing

@testable import ParleyHTTP

@Suite(.timeLimit(.minutes(10))) struct KnownTokensTests {
    /// The parsed head; an incomplete one throws, which fails the test. (Not `Issue.record` and
    /// then throw: Swift 6.3.1 at -O returned a corrupt head from that form.)
    private static func parse(_ head: String) throws -> HTTPRequestHead {
        let bytes = Array(head.utf8)
        let result = try bytes.withUnsafeBufferPointer { try HTTPHeadParser().parse($0) }
        guard case .complete(let parsed, _) = result else { throw HTTPParseError.badRequest("incomplete head") }
        return parsed
    }

    @Test func usualNamesAndMethodsParseAsSent() throws {
        let head = try Self.parse(
            "POST /v1/x HTTP/1.1\r\nHost: a\r\nParley-Core: 1.2.0\r\nIf-None-Match: \"e\"\r\nX-Custom: y\r\n\r\n")
        #expect(head.method == "POST")
        #expect(head.headers.fields.map(\.name) == ["Host", "Parley-Core", "If-None-Match", "X-Custom"])
        #expect(head.headers["parley-core"] == "1.2.0")
    }

    @Test func otherSpellingsKeepTheirOwn() throws {
        let head = try Self.parse("PATCH /x HTTP/1.1\r\nhost: a\r\nPARLEY-CORE: 2.0.0\r\nAcceptX: z\r\n\r\n")
        #expect(head.method == "PATCH")
        #expect(head.headers.fields.map(\.name) == ["host", "PARLEY-CORE", "AcceptX"])
        #expect(head.headers["Parley-Core"] == "2.0.0")
    }
}
