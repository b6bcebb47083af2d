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

    /// A plain path's segments are read from the path itself (no escape to decode); they must
    /// be exactly what decoding gives the same path with one byte escaped.
    @Test(arguments: [
        "/v1/screens/intake", "/a/b/", "/a//b", "/a//", "//", "/a/b//", "/x",
        "/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16", "/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17/18",
    ])
    func plainSegmentsAreWhatDecodingGives(_ path: String) throws {
        let plain = try RequestTarget(path)
        #expect(plain.decodedSegments == nil, "read in place")
        // The same path with its first segment byte escaped takes the decoding path.
        var escaped = path
        if let index = escaped.firstIndex(where: { $0 != "/" }) {
            let byte = escaped.utf8[index]
            escaped.replaceSubrange(index...index, with: "%" + String(byte, radix: 16, uppercase: true))
        }
        let decoded = try RequestTarget(escaped)
        #expect(plain.segments == decoded.segments, "\(path) vs \(escaped)")
        let request = try HTTPRequest(method: "GET", target: path)
        #expect(request.pathSegments == decoded.segments)
    }
}
