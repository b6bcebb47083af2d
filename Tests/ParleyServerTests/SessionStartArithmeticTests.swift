import Foundation
import Testing

@testable import ParleyServer

/// What a start computes by hand (issue 27: each was a few thousand instructions through
/// Foundation) matches what Foundation computes.
@Suite(.timeLimit(.minutes(10))) struct SessionStartArithmeticTests {
    /// RFC 4648 §5 by way of Foundation's standard base64.
    private func reference(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func base64urlMatchesTheStandardAlphabetRewrittenWithoutPadding() {
        var generator = SystemRandomNumberGenerator()
        for count in 0...40 {
            for _ in 0..<50 {
                let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
                #expect(bytes.withUnsafeBytes { SessionID.base64url($0) } == reference(bytes))
            }
        }
        // Every value in every position of a group of three.
        for value in 0...255 {
            for position in 0..<3 {
                var bytes: [UInt8] = [0x5A, 0xA5, 0x0F]
                bytes[position] = UInt8(value)
                #expect(bytes.withUnsafeBytes { SessionID.base64url($0) } == reference(bytes))
            }
        }
    }

    @Test func aGeneratedIdIs30Base64urlCharactersOfItsMillisecondAnd128Bits() throws {
        let startedAt = 1_795_000_000.123
        let id = SessionID.generate(startedAt: startedAt).text
        #expect(id.utf8.count == 30)
        #expect(
            id.utf8.allSatisfy { byte in
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            })
        // The first 8 characters spell the millisecond in 6 bytes, most significant first.
        let standard = id.prefix(8).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let time = try #require(Data(base64Encoded: standard))
        #expect(time.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } == 1_795_000_000_123)
        // The rest is fresh randomness, whatever the instant.
        let twin = SessionID.generate(startedAt: startedAt).text
        #expect(twin.prefix(8) == id.prefix(8) && twin != id)
    }

    @Test func theMonthOfAnInstantIsTheGregorianUTCMonth() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        func expected(_ instant: Double) -> Int {
            let parts = calendar.dateComponents([.year, .month], from: Date(timeIntervalSince1970: instant))
            return parts.year! * 100 + parts.month!
        }
        // Every month's first and last second from 1900 to 2200, leap years and centuries included.
        for year in 1900...2200 {
            for month in 1...12 {
                let first = calendar.date(from: DateComponents(year: year, month: month, day: 1))!
                let start = first.timeIntervalSince1970
                for instant in [start - 0.5, start - 1, start, start + 0.25, start + 86_399.75] {
                    #expect(SessionStore.month(of: instant) == expected(instant), "at \(instant)")
                }
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let instant = Double.random(in: -4e9...8e9, using: &generator)
            #expect(SessionStore.month(of: instant) == expected(instant), "at \(instant)")
        }
    }
}
