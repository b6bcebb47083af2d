/// Values at the edges of the `email` and `date` grammars (docs/rules.md):
/// each list mixes values just inside and just outside, and the
/// generator keeps whichever the interpreter says fits the label it needs.
enum SampleEdges {
    /// RFC 5321 `Mailbox` edges: quoted local parts, address literals, dots, label hyphens.
    static let mailboxes = [
        "ada@example.com", "\"ada lovelace\"@example.com", "ada@[192.0.2.1]", "ada@[IPv6:2001:db8::1]",
        "first.last+tag@sub.example.co", "a@b", "ada@", "@example.com", "ada@@example.com", "ada.@example.com",
        ".ada@example.com", "ada..b@example.com", "ada@-example.com", "ada@example..com", "ada@[300.0.2.1]",
        "ada lovelace@example.com", "adé@example.com", "ada@[tag:content]",
    ]

    /// A mailbox of exactly `length` scalars (a dot-atom local part padded with `a`), or `nil` when too short.
    static func mailbox(length: Int) -> String? {
        let domain = "@example.com"
        guard length > domain.count else { return nil }
        return String(repeating: "a", count: length - domain.count) + domain
    }

    /// RFC 3339 `full-date` edges: leap days, month ends, malformed shapes, and the days either side of each bound.
    static func dates(min: String?, max: String?) -> [String] {
        var dates: [String] = []
        for bound in [min, max].compactMap({ $0 }) {
            guard let day = CalendarDay(bound) else { continue }
            dates += [bound, day.previous.text, day.next.text]
        }
        dates += [
            "2024-02-29", "2000-02-29", "2023-02-29", "1900-02-29", "2024-04-30", "2024-04-31", "2024-12-31",
            "2024-13-01", "2024-00-10", "2024-1-01", "0000-01-01", "9999-12-31", "2024/01/01",
        ]
        return dates
    }
}

/// A proleptic Gregorian day, just enough to step one day either side of a `date` bound.
struct CalendarDay {
    var year: Int
    var month: Int
    var day: Int

    /// Parses `YYYY-MM-DD` when it is a real date.
    init?(_ text: String) {
        guard let ordinal = FullDateSyntax.ordinal(text) else { return nil }
        year = ordinal / 10_000
        month = ordinal / 100 % 100
        day = ordinal % 100
    }

    private init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day after (years past 9999 are not `full-date`s; the text then simply fails the grammar).
    var next: CalendarDay {
        if day < Self.days(month: month, year: year) { return CalendarDay(year: year, month: month, day: day + 1) }
        if month < 12 { return CalendarDay(year: year, month: month + 1, day: 1) }
        return CalendarDay(year: year + 1, month: 1, day: 1)
    }

    /// The day before (before year 0 the text fails the grammar).
    var previous: CalendarDay {
        if day > 1 { return CalendarDay(year: year, month: month, day: day - 1) }
        if month > 1 { return CalendarDay(year: year, month: month - 1, day: Self.days(month: month - 1, year: year)) }
        return CalendarDay(year: year - 1, month: 12, day: 31)
    }

    /// `YYYY-MM-DD`.
    var text: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(abs(value))
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    private static func days(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
