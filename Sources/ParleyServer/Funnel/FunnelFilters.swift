import ParleyCore
import ParleyHTTP

/// The funnel's query (`?version=&core=&locale=&from=&to=`), validated: each absent filter
/// matches every session; a malformed one is a 400 naming it.
struct FunnelFilters: Sendable {
    var version: Int?
    /// A core version as sessions store it (`1.2.0`).
    var core: String?
    var locale: String?
    /// RFC 3339 date or date-time: sessions created at or after it.
    var from: String?
    /// RFC 3339 date or date-time: sessions created before it.
    var to: String?

    init(version: Int? = nil, core: String? = nil, locale: String? = nil, from: String? = nil, to: String? = nil) {
        self.version = version
        self.core = core
        self.locale = locale
        self.from = from
        self.to = to
    }

    init(_ request: HTTPRequest) throws(HTTPError) {
        if let text = request.query("version") {
            guard let value = RequestInput.positiveInteger(text) else {
                throw ServiceProblem.badParameter("version must be a positive integer")
            }
            version = value
        }
        if let text = request.query("core") {
            do {
                core = try CoreVersion(parsing: text).description
            } catch {
                throw ServiceProblem.badParameter("core must be a core version such as 1.2.0")
            }
        }
        if let text = request.query("locale") {
            guard Self.isLocaleShaped(text) else {
                throw ServiceProblem.badParameter("locale must be a BCP 47 language tag such as fr-CA")
            }
            locale = text
        }
        for name in ["from", "to"] {
            guard let text = request.query(name) else { continue }
            guard Self.isTimestamp(text) else {
                throw ServiceProblem.badParameter(
                    "\(name) must be an RFC 3339 date or date-time such as 2026-11-25 or 2026-11-25T08:00:00Z")
            }
            if name == "from" { from = text } else { to = text }
        }
    }

    /// The filters as given, for the response.
    var json: JSONObject {
        var object = JSONObject()
        if let version { object["version"] = .number(JSONNumber(version)) }
        if let core { object["core"] = .string(core) }
        if let locale { object["locale"] = .string(locale) }
        if let from { object["from"] = .string(from) }
        if let to { object["to"] = .string(to) }
        return object
    }

    /// `YYYY-MM-DD`, optionally `THH:MM[:SS[.fraction]]` and `Z` or `±HH:MM` (RFC 3339 §5.6),
    /// with months, days, hours and minutes in range, so Postgres never refuses the cast.
    static func isTimestamp(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, bytes.count <= 40 else { return false }
        func number(_ start: Int, _ length: Int, max: Int) -> Bool {
            guard start + length <= bytes.count else { return false }
            var value = 0
            for byte in bytes[start..<start + length] {
                guard (0x30...0x39).contains(byte) else { return false }
                value = value * 10 + Int(byte - 0x30)
            }
            return value <= max
        }
        guard number(0, 4, max: 9999), bytes[4] == 0x2D, number(5, 2, max: 12), bytes[7] == 0x2D,
            number(8, 2, max: 31), bytes[5...6] != [0x30, 0x30], bytes[8...9] != [0x30, 0x30]
        else { return false }
        if bytes.count == 10 { return true }
        guard bytes[10] == 0x54 || bytes[10] == 0x74, number(11, 2, max: 23), bytes.count > 15, bytes[13] == 0x3A,
            number(14, 2, max: 59)
        else { return false }
        var index = 16
        if index < bytes.count, bytes[index] == 0x3A {
            guard number(index + 1, 2, max: 60) else { return false }
            index += 3
            if index < bytes.count, bytes[index] == 0x2E {
                index += 1
                let digits = index
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                guard index > digits else { return false }
            }
        }
        guard index < bytes.count else { return false }
        if bytes[index] == 0x5A || bytes[index] == 0x7A { return index + 1 == bytes.count }
        guard bytes[index] == 0x2B || bytes[index] == 0x2D, index + 6 == bytes.count, number(index + 1, 2, max: 23),
            bytes[index + 3] == 0x3A, number(index + 4, 2, max: 59)
        else { return false }
        return true
    }

    /// The shape `/openapi.json` states for `locale` (`^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$`, at
    /// most 64 characters): a filter only compares it with the sessions' locales, so any tag of
    /// that shape is accepted (an unusual one matches nothing) and the document says exactly
    /// what is refused.
    static func isLocaleShaped(_ text: String) -> Bool {
        let subtags = text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard text.utf8.count <= 64, let first = subtags.first, (2...8).contains(first.count),
            first.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A })
        else { return false }
        return subtags.dropFirst().allSatisfy { part in
            (1...8).contains(part.count)
                && part.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) }
        }
    }
}
