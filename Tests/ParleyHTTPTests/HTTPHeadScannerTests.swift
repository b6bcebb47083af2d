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

    /// The whole-head fast path (taken when a complete head arrives in one read) agrees with the
    /// byte-by-byte scan on every input: the same head, or the same refusal. Every single-byte
    /// edit of a few valid heads (each byte replaced by or preceded by each of a dozen telling
    /// bytes, or deleted) hits the fast path's bail-outs and its accepted shapes alike.
    @Test func wholeHeadsAndByteByByteScansAgree() {
        let seeds = [
            "GET /v1/screens/a HTTP/1.1\r\nHost: t\r\nParley-Core: 1.2.0\r\n\r\n",
            "POST /v1/sessions HTTP/1.0\r\nHost:\r\nContent-Length: 2\r\n\r\n{}",
            "\r\nHEAD * HTTP/1.1\r\nX: \t a b\r\n\r\n",
            "OPTIONS http://h/x?y HTTP/1.9\r\n\r\n",
        ].map { Array($0.utf8) }
        let telling = Array(" \t\r\n:/H1.".utf8) + [0x00, 0x7F, 0x80]
        var compared = 0
        for seed in seeds {
            var edits: [[UInt8]] = []
            for position in seed.indices {
                var deleted = seed
                deleted.remove(at: position)
                edits.append(deleted)
                for byte in telling {
                    var replaced = seed
                    replaced[position] = byte
                    var inserted = seed
                    inserted.insert(byte, at: position)
                    edits += [replaced, inserted]
                }
            }
            for bytes in edits {
                let whole = Self.outcome { try bytes.withUnsafeBufferPointer { try HTTPHeadParser().parse($0) } }
                let stepped = Self.outcome { try Self.feed(bytes, pieces: 1).0 }
                #expect(whole == stepped, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
                compared += 1
            }
        }
        #expect(compared == seeds.map(\.count).reduce(0, +) * (1 + 2 * telling.count))
    }

    /// A result or the status a refusal carries, comparable.
    private static func outcome(_ parse: () throws -> HTTPHeadParser.Result) -> String {
        do { return "\(try parse())" } catch let error as HTTPParseError { return "refused \(error.status)" } catch {
            return "unexpected \(error)"
        }
    }
}
