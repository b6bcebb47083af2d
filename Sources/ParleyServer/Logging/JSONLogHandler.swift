import Glibc
public import Logging
import ParleyCore
import Synchronization

/// `--log-format json`: one JSON object per line on standard output, for log pipelines.
///
/// Stable keys: `time` (RFC 3339, UTC, milliseconds), `level`, `logger`, `message`, then every
/// metadata value under its own key: access-log lines carry `request_id`, `method`, `route`,
/// `status`, `bytes`, `duration` (seconds) and `peer`. Integers and decimals stay JSON numbers.
/// Each line goes out in one `write(2)`, so lines from many threads never interleave.
public struct JSONLogHandler: LogHandler {
    /// The label of the logger (`parley`, `parley.postgres`).
    public let label: String
    /// Least severe level written.
    public var logLevel: Logger.Level = .info
    /// Metadata added to every line of this logger.
    public var metadata: Logger.Metadata = [:]
    private let output: JSONLogOutput

    /// A handler writing to standard output (one lock shared by every logger of the process).
    public init(label: String) {
        self.label = label
        output = JSONLogOutput.standardOutput
    }

    /// A handler writing to `fileDescriptor` (tests use a pipe or file).
    public init(label: String, fileDescriptor: Int32) {
        self.label = label
        output = JSONLogOutput(fileDescriptor: fileDescriptor)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        output.write(Self.line(event, label: label, handlerMetadata: metadata))
    }

    /// The JSON object for one event, newline-terminated.
    static func line(_ event: LogEvent, label: String, handlerMetadata: Logger.Metadata) -> String {
        var line = "{\"time\":\"\(Self.timestamp())\",\"level\":\"\(event.level)\",\"logger\":"
        line += quoted(label) + ",\"message\":" + quoted(event.message.description)
        var merged = handlerMetadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        for key in merged.keys.sorted() where !["time", "level", "logger", "message"].contains(key) {
            line += "," + quoted(key) + ":" + Self.json(merged[key]!)
        }
        return line + "}\n"
    }

    /// A metadata value as JSON: numbers stay numbers, everything else is a string.
    static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): return quoted(text)
        case .stringConvertible(let convertible):
            switch convertible {
            case let number as Int: return String(number)
            case let number as Double where number.isFinite: return String(number)
            case let flag as Bool: return flag ? "true" : "false"
            default: return quoted(convertible.description)
            }
        case .array(let values): return "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let values):
            return "{"
                + values.keys.sorted().map { quoted($0) + ":" + json(values[$0]!) }
                .joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String { CanonicalJSON.string(.string(text)) }

    /// Now as `2026-11-23T08:41:20.123Z`.
    static func timestamp() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var seconds = time.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = time.tv_nsec / 1_000_000
        let milliText = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(milliText)Z"
    }
}

/// The file descriptor lines go to; one `write` per line under a lock.
final class JSONLogOutput: Sendable {
    static let standardOutput = JSONLogOutput(fileDescriptor: STDOUT_FILENO)
    private let fileDescriptor: Mutex<Int32>

    init(fileDescriptor: Int32) { self.fileDescriptor = Mutex(fileDescriptor) }

    func write(_ line: String) {
        var bytes = Array(line.utf8)
        fileDescriptor.withLock { fd in
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes {
                    Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset)
                }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
