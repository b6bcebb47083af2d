/// How access-log lines are written (``HTTPServerConfiguration/accessLogFormat``).
public enum AccessLogFormat: Sendable {
    /// `<time> <method> <path> <status> <bytes>B <ms>ms peer=<peer>[ request_id=<id>]`, for people.
    case text
    /// One JSON object per line, for log pipelines: `time`, `level`, `logger`, `message`,
    /// `request_id` (when the response has an `X-Request-Id`), `method`, `route`, `status`,
    /// `bytes`, `duration` (seconds) and `peer`.
    case json
}

/// Writes one JSON access-log line straight into a loop's buffer (no intermediate strings).
enum AccessLogJSON {
    static func append(
        into buffer: inout [UInt8], time: [UInt8], method: String, route: String, status: Int, bytes: Int,
        nanoseconds: UInt64, peer: String, requestId: String?
    ) {
        buffer.append(contentsOf: #"{"time":""#.utf8)
        // The text log's time ends in a space; JSON wants the timestamp alone.
        buffer.append(contentsOf: time.last == 32 ? time.dropLast() : time[...])
        buffer.append(contentsOf: #"","level":"info","logger":"parley.access","message":""#.utf8)
        appendEscaped(method, into: &buffer)
        buffer.append(32)
        appendEscaped(route, into: &buffer)
        buffer.append(32)
        appendDecimal(status, into: &buffer)
        if let requestId {
            buffer.append(contentsOf: #"","request_id":""#.utf8)
            appendEscaped(requestId, into: &buffer)
        }
        buffer.append(contentsOf: #"","method":""#.utf8)
        appendEscaped(method, into: &buffer)
        buffer.append(contentsOf: #"","route":""#.utf8)
        appendEscaped(route, into: &buffer)
        buffer.append(contentsOf: #"","status":"#.utf8)
        appendDecimal(status, into: &buffer)
        buffer.append(contentsOf: #","bytes":"#.utf8)
        appendDecimal(bytes, into: &buffer)
        buffer.append(contentsOf: #","duration":"#.utf8)
        let micros = Int(nanoseconds / 1000)
        appendDecimal(micros / 1_000_000, into: &buffer)
        buffer.append(46)  // "."
        let fraction = micros % 1_000_000
        var scale = 100_000
        while scale > 1, fraction < scale {
            buffer.append(48)
            scale /= 10
        }
        appendDecimal(fraction, into: &buffer)
        buffer.append(contentsOf: #","peer":""#.utf8)
        appendEscaped(peer, into: &buffer)
        buffer.append(contentsOf: "\"}\n".utf8)
    }

    /// The text's bytes as the inside of a JSON string: `"`, `\` and control bytes escaped.
    static func appendEscaped(_ text: String, into buffer: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case 34, 92:
                buffer.append(92)
                buffer.append(byte)
            case 0..<32:
                buffer.append(contentsOf: Array(#"\u00"#.utf8))
                buffer.append(hexDigits[Int(byte >> 4)])
                buffer.append(hexDigits[Int(byte & 0xF)])
            default:
                buffer.append(byte)
            }
        }
    }

    static func appendDecimal(_ value: Int, into buffer: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, into: &buffer) }
        buffer.append(48 + UInt8(value % 10))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
