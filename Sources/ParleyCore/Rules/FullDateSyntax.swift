/// RFC 3339 §5.6 `full-date` (`YYYY-MM-DD`, ASCII digits), a real date of the
/// proleptic Gregorian calendar (docs/rules.md: `date`).
enum FullDateSyntax {
    /// The date's digits as a comparable number `YYYYMMDD`, or `nil` when `value` is not a real full-date.
    ///
    /// Fixed width makes numeric order chronological order, which is how the
    /// rule's `min`/`max` bounds compare.
    static func ordinal(_ value: String) -> Int? {
        let bytes = Array(value.utf8)
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D else { return nil }
        var digits: [Int] = []
        for (index, byte) in bytes.enumerated() where index != 4 && index != 7 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            digits.append(Int(byte - 0x30))
        }
        let year = digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3]
        let month = digits[4] * 10 + digits[5]
        let day = digits[6] * 10 + digits[7]
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        return year * 10_000 + month * 100 + day
    }

    // RFC 3339 §5.7: February has 29 days in leap years (divisible by 4, not by 100 unless by 400).
    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
