/// One event loop's access log: lines are formatted straight into a byte buffer from pieces
/// the loop already has (method and path bytes, a per-second timestamp) and handed to the sink
/// in batches: when the buffer is full, when it has waited `flushInterval`, and when the loop
/// ends. Owned by the loop's thread, so it needs no lock; a request costs no syscall.
struct AccessLog {
    private let sink: any AccessLogSink
    private let path: @Sendable (String) -> String
    private let flushBytes: Int
    private let flushInterval: UInt64
    private var buffer: [UInt8] = []
    private var oldestLine: UInt64 = 0

    init(configuration: HTTPServerConfiguration) {
        sink = configuration.accessLogSink
        path = configuration.accessLogPath
        flushBytes = max(1, configuration.accessLogBufferBytes)
        flushInterval = configuration.accessLogFlushInterval.nanoseconds
        buffer.reserveCapacity(flushBytes + 512)
    }

    /// Appends `<time> <method> <path> <status> <bytes>B <ms>ms peer=<peer>` and flushes when full.
    mutating func record(
        time: [UInt8], method: String, path rawPath: String, status: Int, bytes: Int, nanoseconds: UInt64,
        peer: String, now: UInt64
    ) {
        if buffer.isEmpty { oldestLine = now }
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
        buffer.append(10)
        if buffer.count >= flushBytes { flush() }
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
}
