/// The `text/event-stream` parser of the WHATWG HTML standard (§9.2.6 "Interpreting an event
/// stream"): bytes in, events out, no I/O, so tests feed it strings split anywhere.
///
/// Lines end with CRLF, LF or CR (a CR at the end of one chunk and an LF at the start of the
/// next are one line end); a leading U+FEFF is dropped; `:` lines are comments; `event`, `data`,
/// `id` (ignored when it contains U+0000) and `retry` (ASCII digits only) are the fields; a blank
/// line dispatches, and an event whose data buffer is empty is not dispatched. At the end of the
/// stream an event without its blank line is discarded (``finish()``).
public struct EventStreamParser: Sendable {
    /// Longest line accepted, in bytes: a server that never ends a line cannot exhaust memory.
    public let maximumLineBytes: Int
    /// The last event ID the stream set (sent back as `Last-Event-ID` when reconnecting).
    public private(set) var lastEventId = ""
    /// The reconnection time the stream asked for with `retry:`, in milliseconds.
    public private(set) var reconnectionMilliseconds: Int?
    /// Comment lines seen so far (the server's heartbeats).
    public private(set) var comments = 0

    private var line: [UInt8] = []
    private var skipLineFeed = false
    private var atStart = true
    private var eventType = ""
    private var data = ""
    private var hasData = false

    /// A parser; `maximumLineBytes` defaults to 8 MiB (a snapshot is one `data:` line).
    public init(maximumLineBytes: Int = 8 << 20) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// Feeds the next bytes of the stream; returns the events they completed, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(ParleyClientError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if skipLineFeed {
                skipLineFeed = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                skipLineFeed = true
                if let event = endLine() { events.append(event) }
            case 0x0A:
                if let event = endLine() { events.append(event) }
            default:
                guard line.count < maximumLineBytes else {
                    throw .invalidResponse("an event stream line is longer than \(maximumLineBytes) bytes")
                }
                line.append(byte)
            }
        }
        return events
    }

    /// The stream ended: a partial line or an event without its blank line is discarded (§9.2.6).
    public mutating func finish() {
        line.removeAll()
        skipLineFeed = false
        atStart = true
        eventType = ""
        data = ""
        hasData = false
    }

    private mutating func endLine() -> ServerSentEvent? {
        var bytes = line[...]
        line.removeAll(keepingCapacity: true)
        if atStart {
            atStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        if bytes.isEmpty { return dispatch() }
        if bytes.first == UInt8(ascii: ":") {
            comments += 1
            return nil
        }
        let field: String
        var value = ""
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            field = String(decoding: bytes[..<colon], as: UTF8.self)
            var rest = bytes[(colon + 1)...]
            if rest.first == UInt8(ascii: " ") { rest = rest.dropFirst() }
            value = String(decoding: rest, as: UTF8.self)
        } else {
            field = String(decoding: bytes, as: UTF8.self)
        }
        process(field: field, value: value)
        return nil
    }

    private mutating func process(field: String, value: String) {
        switch field {
        case "event": eventType = value
        case "data":
            if hasData { data += "\n" }
            data += value
            hasData = true
        case "id": if !value.unicodeScalars.contains("\u{0}") { lastEventId = value }
        case "retry":
            if !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                reconnectionMilliseconds = Int(value) ?? Int.max
            }
        default: break
        }
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventType = ""
            data = ""
            hasData = false
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: data, lastEventId: lastEventId)
    }
}
