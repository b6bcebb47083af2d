/// RFC 3339 UTC timestamps with millisecond precision (`2026-11-25T13:40:33.123Z`), as
/// `Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)` writes them, without
/// Foundation's formatter: every snapshot carries its session's expiry, and building that
/// formatter and running it cost more than the rest of the snapshot's members.
///
/// Same digits as Foundation for every instant: it truncates the fraction of the instant's
/// seconds since 2001 (its reference date), so that is what is truncated here
/// (MillisecondTimestampTests compares the two).
enum MillisecondTimestamp {
    /// Seconds since 1970 as text.
    static func text(_ seconds: Double) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        write(seconds, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the text of `seconds` (since 1970) to `bytes`.
    static func write(_ seconds: Double, into bytes: inout [UInt8]) {
        let sinceReference = seconds - referenceOffset
        let wholeSinceReference = sinceReference.rounded(.down)
        let milliseconds = min(999, Int(((sinceReference - wholeSinceReference) * 1000).rounded(.down)))
        let whole = Int(wholeSinceReference) + Int(referenceOffset)
        var days = whole / 86_400
        var secondOfDay = whole % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let date = CivilDate(daysSince1970: days)
        let (year, month, day) = (date.year, date.month, date.day)
        if (0...9999).contains(year) {
            // Every instant a session holds: its 24 bytes written into place on the stack and
            // appended at once (appended a digit at a time, each append checked the array's
            // capacity and uniqueness: ~900 instructions a snapshot).
            let fields = Fields(
                year: year, month: month, day: day, secondOfDay: secondOfDay, milliseconds: milliseconds)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
                fields.write(into: buffer)
                bytes.append(contentsOf: UnsafeBufferPointer(buffer))
            }
            return
        }
        digits(year, 4, &bytes)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2, &bytes)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2, &bytes)
        bytes.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2, &bytes)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2, &bytes)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2, &bytes)
        bytes.append(UInt8(ascii: "."))
        digits(milliseconds, 3, &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// A civil instant's fields, for the fixed-width form of a year 0…9999.
    private struct Fields {
        let year: Int
        let month: Int
        let day: Int
        let secondOfDay: Int
        let milliseconds: Int

        /// `yyyy-MM-ddTHH:mm:ss.SSSZ` into `buffer`'s 24 bytes. Two digits at a time, from one
        /// unsigned division each: a digit at a time, each a signed division and remainder by 10,
        /// the seventeen digits cost ~370 instructions a snapshot.
        func write(into buffer: UnsafeMutableBufferPointer<UInt8>) {
            /// `value` (0…99) as two digits at `start`.
            func pair(_ value: UInt32, at start: Int) {
                let tens = value / 10
                buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens)
                buffer[start + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value &- tens &* 10)
            }
            let year = UInt32(truncatingIfNeeded: self.year)
            let century = year / 100
            pair(century, at: 0)
            pair(year &- century &* 100, at: 2)
            buffer[4] = UInt8(ascii: "-")
            pair(UInt32(truncatingIfNeeded: month), at: 5)
            buffer[7] = UInt8(ascii: "-")
            pair(UInt32(truncatingIfNeeded: day), at: 8)
            buffer[10] = UInt8(ascii: "T")
            let second = UInt32(truncatingIfNeeded: secondOfDay)
            let minute = second / 60
            let hour = minute / 60
            pair(hour, at: 11)
            buffer[13] = UInt8(ascii: ":")
            pair(minute &- hour &* 60, at: 14)
            buffer[16] = UInt8(ascii: ":")
            pair(second &- minute &* 60, at: 17)
            buffer[19] = UInt8(ascii: ".")
            let millisecond = UInt32(truncatingIfNeeded: milliseconds)
            let hundreds = millisecond / 100
            buffer[20] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: hundreds)
            pair(millisecond &- hundreds &* 100, at: 21)
            buffer[23] = UInt8(ascii: "Z")
        }
    }

    /// Seconds from 1970 to 2001-01-01, Foundation's reference date.
    private static let referenceOffset: Double = 978_307_200

    /// `value` in decimal, zero-padded to at least `width` digits (a year before 1 or after 9999
    /// is outside what sessions hold; it is written with its sign and all its digits).
    private static func digits(_ value: Int, _ width: Int, _ bytes: inout [UInt8]) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            return digits(-value, width, &bytes)
        }
        var divisor = 1
        var length = 1
        while value / divisor >= 10 {
            divisor *= 10
            length += 1
        }
        for _ in length..<max(length, width) { bytes.append(UInt8(ascii: "0")) }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
