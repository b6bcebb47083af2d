public import Foundation

extension Date: PostgresDecodable {
    /// `timestamptz`, `timestamp` or `date` in ISO style (`2024-05-01 12:30:00.25+00`).
    public static func decode(postgresText text: [UInt8], typeOID: UInt32) throws -> Date {
        guard let date = parseISOTimestamp(text) else {
            throw PostgresDecodingFailure(expected: "an ISO timestamp (YYYY-MM-DD hh:mm:ss[.ffffff][±hh[:mm]])")
        }
        return date
    }
}

extension Array: PostgresDecodable where Element == String {
    /// A one-dimensional array (e.g. `text[]`) in Postgres's `{a,"b c",NULL}` text form; `NULL`
    /// elements are refused.
    public static func decode(postgresText text: [UInt8], typeOID: UInt32) throws -> [String] {
        guard let elements = parseTextArray(text) else {
            throw PostgresDecodingFailure(expected: "a one-dimensional array without NULL elements")
        }
        return elements
    }
}

/// `\x` followed by hex digit pairs.
func decodeHexBytea(_ text: [UInt8]) throws -> [UInt8] {
    let failure = PostgresDecodingFailure(expected: "bytea in hex format (\\x…)")
    guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x"), text.count % 2 == 0 else {
        throw failure
    }
    func nibble(_ byte: UInt8) throws -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: throw failure
        }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.count / 2 - 1)
    var index = 2
    while index < text.count {
        bytes.append(try nibble(text[index]) << 4 | nibble(text[index + 1]))
        index += 2
    }
    return bytes
}

/// Parses `YYYY-MM-DD[ hh:mm:ss[.f…]][±hh[:mm[:ss]]]`; no offset means UTC.
func parseISOTimestamp(_ text: [UInt8]) -> Date? {
    var index = 0
    func number(_ digits: Int) -> Int? {
        guard index + digits <= text.count else { return nil }
        var value = 0
        for byte in text[index..<index + digits] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += digits
        return value
    }
    func expect(_ character: Character) -> Bool {
        guard index < text.count, text[index] == character.asciiValue else { return false }
        index += 1
        return true
    }
    guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2) else {
        return nil
    }
    var seconds = Double(daysFromCivil(year: year, month: month, day: day) * 86_400)
    if expect(" ") || expect("T") {
        guard let hour = number(2), expect(":"), let minute = number(2), expect(":"), let second = number(2) else {
            return nil
        }
        seconds += Double(hour * 3600 + minute * 60 + second)
        if expect(".") {
            var scale = 0.1
            while index < text.count, let digit = number(1) {
                seconds += Double(digit) * scale
                scale /= 10
            }
        }
        if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
            let sign = text[index] == UInt8(ascii: "+") ? -1.0 : 1.0
            index += 1
            guard let offsetHours = number(2) else { return nil }
            var offset = offsetHours * 3600
            if expect(":"), let offsetMinutes = number(2) { offset += offsetMinutes * 60 }
            if expect(":"), let offsetSeconds = number(2) { offset += offsetSeconds }
            seconds += sign * Double(offset)
        }
    }
    guard index == text.count, (1...12).contains(month), (1...31).contains(day) else { return nil }
    return Date(timeIntervalSince1970: seconds)
}

/// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
}

/// Parses a one-dimensional array literal such as `{a,"b \"c\"",d}`; `nil` on NULL elements or nesting.
func parseTextArray(_ text: [UInt8]) -> [String]? {
    guard text.first == UInt8(ascii: "{"), text.last == UInt8(ascii: "}") else { return nil }
    let body = text[1..<text.count - 1]
    if body.isEmpty { return [] }
    var elements: [String] = []
    var current: [UInt8] = []
    var quoted = false
    var wasQuoted = false
    var escaped = false
    for byte in body {
        if escaped {
            current.append(byte)
            escaped = false
        } else if byte == UInt8(ascii: "\\") {
            escaped = true
        } else if byte == UInt8(ascii: "\"") {
            quoted.toggle()
            wasQuoted = true
        } else if byte == UInt8(ascii: ","), !quoted {
            if !wasQuoted, current == Array("NULL".utf8) { return nil }
            elements.append(String(decoding: current, as: UTF8.self))
            current = []
            wasQuoted = false
        } else if byte == UInt8(ascii: "{"), !quoted {
            return nil
        } else {
            current.append(byte)
        }
    }
    if !wasQuoted, current == Array("NULL".utf8) { return nil }
    elements.append(String(decoding: current, as: UTF8.self))
    return elements
}
