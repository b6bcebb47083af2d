/// How long an ended session of a flow is kept (issue 18, README "Retention"): an ISO 8601
/// duration (`"P90D"`, `"P1Y6M"`, `"PT36H"`) of whole years, months, weeks, days, hours, minutes
/// and seconds, longer than zero. The server deletes completed and expired sessions this long
/// after they ended; Postgres reads the same text as an `interval`, so calendar units keep their
/// calendar meaning (a month after January 31 is the end of February).
public struct RetentionPeriod: Sendable, Hashable, CustomStringConvertible {
    /// The duration as written (what the wire format carries).
    public let description: String

    /// The most digits one component may have (999,999 days is over 2,700 years).
    public static let maximumDigits = 6

    /// Parses an ISO 8601 duration (RFC 3339 appendix A `dur-*` with whole numbers); nil when
    /// malformed or zero.
    public init?(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        guard scalars.first == "P", scalars.count > 1 else { return nil }
        var date: [Unicode.Scalar] = ["Y", "M", "W", "D"]
        var time: [Unicode.Scalar] = ["H", "M", "S"]
        var inTime = false
        var digits = ""
        var sawComponent = false
        var sawTimeComponent = false
        var nonZero = false
        for scalar in scalars.dropFirst() {
            if ("0"..."9").contains(scalar) {
                digits.unicodeScalars.append(scalar)
                guard digits.count <= Self.maximumDigits else { return nil }
                continue
            }
            if scalar == "T" {
                guard !inTime, digits.isEmpty else { return nil }
                inTime = true
                continue
            }
            guard !digits.isEmpty else { return nil }
            // Designators must come in order, each at most once.
            if inTime {
                guard let index = time.firstIndex(of: scalar) else { return nil }
                time.removeFirst(index + 1)
                sawTimeComponent = true
            } else {
                guard let index = date.firstIndex(of: scalar) else { return nil }
                date.removeFirst(index + 1)
            }
            sawComponent = true
            nonZero = nonZero || digits.contains { $0 != "0" }
            digits = ""
        }
        guard digits.isEmpty, sawComponent, !inTime || sawTimeComponent, nonZero else { return nil }
        description = text
    }

    /// `n` days.
    public static func days(_ count: Int) -> RetentionPeriod { RetentionPeriod("P\(count)D")! }

    /// `n` months.
    public static func months(_ count: Int) -> RetentionPeriod { RetentionPeriod("P\(count)M")! }

    /// `n` years.
    public static func years(_ count: Int) -> RetentionPeriod { RetentionPeriod("P\(count)Y")! }
}
