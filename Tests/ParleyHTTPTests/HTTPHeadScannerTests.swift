import Foundation
import Testing

@testable import ParleyHTTP

/// The head is validated as bytes arrive: reads resume, and bad bytes are refused at once.
@Suite(.timeLimit(.minutes(10))) struct HTTPHeadScannerTests {
    static let request = Array("GET /v1/screens/a?x=1 HTTP/1.1\r\nHost: t\r\nParley-Core: 1.2.0\r\n\r\nNEXT".utf8)

    /// Feeds `bytes` in pieces of `size`, as reads would, through one scanner.
    static func feed(_ bytes: [UInt8], pieces size: Int) throws(HTTPParseError) -> (HTTPHeadParser.Result, [Int]) {
        var scanner = HTTPHeadScanner()
        var progress: [Int] = []
        var end = 0
        while end < bytes.count {
            end = min(bytes.count, end + size)
            let result = try Array(bytes[0..<end]).withUnsafeBufferPointer { buffer throws(HTTPParseError) in
                try HTTPHeadParser().parse(buffer, resuming: &scanner)
            }
            progress.append(scanner.scanned)
            if case .complete = result { return (result, progress) }
        }
        return (.incomplete, progress)
    }

    @Test(arguments: [1, 3, 7, 64])
    func resumedParsingMatchesOneShotParsing(pieceSize: Int) throws {
        let oneShot = try Self.request.withUnsafeBufferPointer { try HTTPHeadParser().parse($0) }
        let (resumed, progress) = try Self.feed(Self.request, pieces: pieceSize)
        #expect(resumed == oneShot)
        guard case .complete(let head, let consumed) = resumed else { return }
        #expect(head.target == "/v1/screens/a?x=1")
        #expect(consumed == Self.request.count - 4)
        // Each read scans only what it added: the scanned offset only grows, by at most a piece.
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $1 > $0 && $1 - $0 <= pieceSize })
    }

    /// Inputs whose last byte is the first that no request can contain.
    static let garbage: [(String, [UInt8])] = [
        ("TLS ClientHello", [0x16]),
        ("binary garbage", [0x00]),
        ("invalid method", Array("G@".utf8)),
        ("space in target", Array("GET /a b".utf8)),
        ("bad version", Array("GET / HTTQ".utf8)),
        ("bad field name", Array("GET / HTTP/1.1\r\nHo ".utf8)),
        ("control byte in value", Array("GET / HTTP/1.1\r\nHost: a\u{01}".utf8)),
        ("obs-fold", Array("GET / HTTP/1.1\r\nHost: a\r\n ".utf8)),
    ]

    @Test(arguments: garbage.indices)
    func theFirstImpossibleByteIsRefused(index: Int) {
        let (name, bytes) = Self.garbage[index]
        var scanner = HTTPHeadScanner()
        #expect(throws: HTTPParseError.self, "\(name)") {
            _ = try bytes.withUnsafeBufferPointer { try scanner.scan($0) }
        }
        // Every proper prefix up to the bad byte is still a possible request.
        var prefix = HTTPHeadScanner()
        #expect(throws: Never.self) { _ = try Array(bytes.dropLast()).withUnsafeBufferPointer { try prefix.scan($0) } }
    }

    @Test func aPossibleRequestIsAwaitedNotRefused() throws {
        var scanner = HTTPHeadScanner()
        let partial = Array("\r\nPOST /v1/flows HTTP/1.1\r\nContent-Type: application/json".utf8)
        #expect(try partial.withUnsafeBufferPointer { try scanner.scan($0) } == nil)
    }

    @Test func anOverlongRequestLineIsRefusedBeforeItEnds() {
        var limits = HTTPParserLimits()
        limits.maxRequestLineBytes = 32
        var scanner = HTTPHeadScanner(limits: limits)
        let bytes = Array(("GET /" + String(repeating: "a", count: 40)).utf8)
        #expect(throws: HTTPParseError.uriTooLong) { _ = try bytes.withUnsafeBufferPointer { try scanner.scan($0) } }
    }
}
