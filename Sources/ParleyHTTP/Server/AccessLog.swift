import Glibc

/// One event loop's access log: lines are formatted straight into a byte buffer from pieces
/// the loop already has (method and path bytes, a per-second timestamp) and handed to the sink
/// in batches: when the buffer is full, when it has waited `flushInterval`, and when the loop
/// ends. Owned by the loop's thread, so it needs no lock; a request costs no syscall.
struct AccessLog {
    private let sink: any AccessLogSink
    private let path: @Sendable (String) -> String
    private let flushBytes: Int
    private let flushInterval: UInt64
    /// `--log-format json`: one JSON object per line instead of text.
    private let json: Bool
    private var buffer: [UInt8] = []
    private var oldestLine: UInt64 = 0

    init(configuration: HTTPServerConfiguration) {
        sink = configuration.accessLogSink
        path = configuration.accessLogPath
        flushBytes = max(1, configuration.accessLogBufferBytes)
        flushInterval = configuration.accessLogFlushInterval.nanoseconds
        json = configuration.accessLogFields
        buffer.reserveCapacity(flushBytes + 512)
    }

    /// Appends `<time> <method> <path> <status> <bytes>B <ms>ms peer=<peer>[ request_id=<id>]` (or
    /// its JSON form) and flushes when full.
    mutating func record(
        time: [UInt8], method: String, path rawPath: String, status: Int, bytes: Int, nanoseconds: UInt64,
        peer: String, requestId: String?, now: UInt64
    ) {
        if buffer.isEmpty { oldestLine = now }
        if json {
            recordJSON(
                method: method, route: path(rawPath), status: status, bytes: bytes, nanoseconds: nanoseconds,
                peer: peer, requestId: requestId)
            if buffer.count >= flushBytes { flush() }
            return
        }
        buffer.append(contentsOf: time)
        buffer.append(contentsOf: method.utf8)
        buffer.append(32)
        buffer.append(contentsOf: path(rawPath).utf8)
        buffer.append(32)
        appendDecimal(status)
        buffer.append(32)
        appendDecimal(bytes)
        buffer.append(contentsOf: [66, 32])  // "B "
        let micros = Int(nanoseconds / 1000)
        appendDecimal(micros / 1000)
        buffer.append(46)  // "."
        let fraction = micros % 1000
        if fraction < 100 { buffer.append(48) }
        if fraction < 10 { buffer.append(48) }
        appendDecimal(fraction)
        buffer.append(contentsOf: Self.peerLabel)
        buffer.append(contentsOf: peer.utf8)
        if let requestId {
            buffer.append(contentsOf: Self.requestIdLabel)
            buffer.append(contentsOf: requestId.utf8)
        }
        buffer.append(10)
        if buffer.count >= flushBytes { flush() }
    }

    /// The JSON line: the service log's keys (`time`, `level`, `logger`, `message`) and the access
    /// fields, sorted like the JSON log handler's. Rare enough (an opt-in format) to build as text.
    private mutating func recordJSON(
        method: String, route: String, status: Int, bytes: Int, nanoseconds: UInt64, peer: String,
        requestId: String?
    ) {
        let seconds = Double(nanoseconds) / 1e9
        var line = "{\"bytes\":\(bytes),\"duration\":\(seconds),\"level\":\"info\",\"logger\":\"parley.http\""
        line += ",\"message\":" + Self.quoted("\(method) \(route) \(status)") + ",\"method\":" + Self.quoted(method)
        line += ",\"peer\":" + Self.quoted(peer)
        if let requestId { line += ",\"request_id\":" + Self.quoted(requestId) }
        line += ",\"route\":" + Self.quoted(route) + ",\"status\":\(status),\"time\":\"\(Self.timestamp())\"}\n"
        buffer.append(contentsOf: line.utf8)
    }

    /// `text` as a JSON string (quotes, backslashes and control characters escaped).
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20:
                result += "\\u00" + String(scalar.value, radix: 16).leftPadded(to: 2)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Now as RFC 3339 UTC with milliseconds.
    static func timestamp() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var seconds = time.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { String(value).leftPadded(to: 2) }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):"
            + "\(two(parts.tm_min)):\(two(parts.tm_sec)).\(String(time.tv_nsec / 1_000_000).leftPadded(to: 3))Z"
    }

    /// Flushes lines that have waited `flushInterval` (called every loop tick).
    mutating func flushIfDue(now: UInt64) {
        if !buffer.isEmpty && now - oldestLine >= flushInterval { flush() }
    }

    /// Hands every buffered line to the sink.
    mutating func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { sink.write($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func appendDecimal(_ value: Int) {
        if value >= 10 { appendDecimal(value / 10) }
        buffer.append(48 + UInt8(value % 10))
    }

    private static let peerLabel: [UInt8] = Array("ms peer=".utf8)
    private static let requestIdLabel: [UInt8] = Array(" request_id=".utf8)
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
