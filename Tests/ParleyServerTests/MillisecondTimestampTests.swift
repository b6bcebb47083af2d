import Foundation
import Testing

@testable import ParleyServer

@Suite struct MillisecondTimestampTests {
    /// Foundation's formatter is what snapshots used to carry: the same text for every instant,
    /// whole milliseconds (what the server writes) or not (what a database round trip can give).
    @Test func writesWhatFoundationWrites() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        var generator = SystemRandomNumberGenerator()
        var instants: [Double] = [0, 0.001, -1.5, 951_782_400, 978_307_199.999, 978_307_200, 1_764_080_000.123]
        for _ in 0..<20_000 {
            instants.append(Double(Int.random(in: 0...4_000_000_000_000, using: &generator)) / 1000)
            instants.append(Double.random(in: 0...4e9, using: &generator))
            instants.append(
                Double(Int.random(in: 1_700_000_000_000_000...1_900_000_000_000_000, using: &generator)) / 1e6)
        }
        for instant in instants {
            #expect(
                MillisecondTimestamp.text(instant) == Date(timeIntervalSince1970: instant).formatted(style),
                "\(instant)")
        }
    }

    /// A notification names changes as `<hex key>:<rev>`, comma-separated; anything else is skipped.
    @Test func noticesNameTheirChanges() {
        let changes = SessionChangeNotice.changes("ab12:3,cd:10,bad,:4,ef:,gh:1x,,ij:7")
        #expect(changes.map(\.keyHex) == ["ab12", "cd", "ij"])
        #expect(changes.map(\.rev) == [3, 10, 7])
        #expect(SessionChangeNotice.changes("").isEmpty)
        #expect(SessionChangeNotice.changes(",ab:1,").map(\.keyHex) == ["ab"])
        #expect(SessionChangeNotice.changes("ab:1,,,cd:2").map(\.rev) == [1, 2])
        #expect(SessionChangeNotice.changes(",,").isEmpty)
    }

    /// The keys a notification names, read from its bytes as the listener hands them over: only
    /// items whose key is a session key's 64 hex digits, in order, and the same read from text.
    @Test func noticesNameTheirKeys() throws {
        let first = try #require(SessionKey(Array(0..<32)))
        let second = try #require(SessionKey(Array(repeating: 0xAB, count: 32)))
        let hex = { (key: SessionKey) in key.withBytes { $0.map { String(format: "%02x", $0) }.joined() } }
        let payload = "\(hex(first)):3,ab12:4,\(hex(second).uppercased()):12,\(hex(first)):x,,\(hex(second)):7"
        var fromBytes: [(SessionKey, Int)] = []
        Array(payload.utf8).withUnsafeBufferPointer { bytes in
            SessionChangeNotice.forEachKey(in: bytes) { fromBytes.append(($0, $1)) }
        }
        var fromText: [(SessionKey, Int)] = []
        SessionChangeNotice.forEachKey(in: payload) { fromText.append(($0, $1)) }
        #expect(fromBytes.map(\.0) == [first, second, second])
        #expect(fromBytes.map(\.1) == [3, 12, 7])
        #expect(fromText.map(\.0) == fromBytes.map(\.0))
        #expect(fromText.map(\.1) == fromBytes.map(\.1))
        var none = 0
        SessionChangeNotice.forEachKey(in: UnsafeBufferPointer(start: nil, count: 0)) { _, _ in none += 1 }
        #expect(none == 0)
    }
}
