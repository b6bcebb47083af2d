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
    }
}
