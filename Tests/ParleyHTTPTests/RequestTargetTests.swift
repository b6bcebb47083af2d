import Testing

@testable import ParleyHTTP

@Suite(.timeLimit(.minutes(10))) struct RequestTargetTests {
    @Test func splitsAndDecodesSegments() throws {
        let target = try RequestTarget("/v1/flows/a%20b/versions/3")
        #expect(target.path == "/v1/flows/a%20b/versions/3")
        #expect(target.segments == ["v1", "flows", "a b", "versions", "3"])
    }

    @Test func rootHasNoSegments() throws {
        #expect(try RequestTarget("/").segments == [])
        #expect(try RequestTarget("*").segments == [])
    }

    @Test func encodedSlashStaysInsideItsSegment() throws {
        #expect(try RequestTarget("/a%2Fb/c").segments == ["a/b", "c"])
    }

    @Test func decodesQueryItemsInOrderWithDuplicates() throws {
        let target = try RequestTarget("/s?b=2&a=x+y&b=%33&flag")
        #expect(target.query.map(\.name) == ["b", "a", "b", "flag"])
        #expect(target.query.map(\.value) == ["2", "x y", "3", ""])
    }

    @Test func absoluteFormKeepsOnlyThePath() throws {
        #expect(try RequestTarget("http://example.com:8080/a/b?c=d").segments == ["a", "b"])
        #expect(try RequestTarget("https://example.com").path == "/")
    }

    @Test func decodesMultibyteUTF8() throws {
        #expect(try RequestTarget("/caf%C3%A9").segments == ["café"])
    }
}
