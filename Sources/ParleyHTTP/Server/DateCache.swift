import Glibc

/// The `Date` field line (RFC 9110 §6.6.1, IMF-fixdate) and the access log's timestamp,
/// formatted at most once per second per loop instead of once per response.
struct DateCache {
    private var second: time_t = -1
    private(set) var line: [UInt8] = []
    /// `2026-11-23T09:31:39Z ` (RFC 3339, UTC), the start of every access-log line.
    private(set) var logTime: [UInt8] = []

    /// Refreshes the line if the wall-clock second changed.
    mutating func refresh() {
        let now = time(nil)
        guard now != second else { return }
        second = now
        line = DateCache.format(now)
        logTime = DateCache.logTime(now)
    }

    static func logTime(_ seconds: time_t) -> [UInt8] {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let text =
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z "
        return Array(text.utf8)
    }

    static func format(_ seconds: time_t) -> [UInt8] {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let text =
            "Date: \(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT\r\n"
        return Array(text.utf8)
    }
}
