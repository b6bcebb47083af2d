import Foundation
import Logging
public import ParleyHTTP
public import ParleyPostgres
public import ParleyServer
import Synchronization

/// A ``ParleyApplication`` run in the test process: the same pool, listeners, caches, responder
/// chain and HTTP server `parley serve` runs, without the cost of a child process. Listening on
/// an ephemeral port, or (``Mode/router``) binding nothing, answering requests handed over as
/// values. Its log lines are kept in memory (``log``) for failure reports and log assertions,
/// and written to the run's log directory (`PARLEY_SERVER_LOGS`) like a child process's log.
public final class InProcessServer: Sendable {
    /// How tests reach the application.
    public enum Mode: Sendable {
        /// No socket: requests are handed to the responder chain as values.
        case router
        /// A real socket on 127.0.0.1, port 0: for what only the wire shows (streams, framing).
        case live
    }

    /// The running application.
    public let application: ParleyApplication
    /// The port it listens on (0 in router mode).
    public let port: UInt16
    private let lines: MemoryLogHandler

    /// Starts an application on the test database, migrated first (or on `databaseURL`, which
    /// its caller prepared), port 0, small pools, with the test data key (as ``ServerProcess``
    /// gives its children).
    public init(
        _ mode: Mode = .live, databaseURL: String? = nil, configure: (inout ServiceConfiguration) -> Void = { _ in },
        database configureDatabase: (inout PostgresConfiguration) -> Void = { _ in },
        http configureHTTP: (inout HTTPServerConfiguration) -> Void = { _ in }
    ) async throws {
        var http = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        http.loopThreads = 2
        http.responderThreads = 4
        http.accessLogPath = ParleyService.accessLogPath
        configureHTTP(&http)
        var service = ServiceConfiguration()
        service.migrationsDirectory = TestEnvironment.migrations.path
        service.dataKeyring = try DataKeyring.load(current: TestEnvironment.dataKeyFile, previous: [])
        configure(&service)
        if databaseURL == nil { try await TestEnvironment.migrateTestDatabase() }
        var database = PostgresConfiguration(url: try databaseURL ?? TestEnvironment.databaseURL())
        database.maximumConnections = 4
        database.applicationName = "parley-in-process"
        configureDatabase(&database)
        let handler = MemoryLogHandler()
        http.accessLogSink = MemoryAccessLogSink(lines: handler.lines)
        http.accessLogFlushInterval = .milliseconds(10)
        var logger = Logger(label: "parley") { _ in handler }
        logger.logLevel = .info
        var databaseLogger = Logger(label: "parley.postgres") { _ in handler }
        databaseLogger.logLevel = .warning
        lines = handler
        application = try ParleyApplication(
            http: http, service: service, database: database, logger: logger, databaseLogger: databaseLogger)
        switch mode {
        case .router:
            try await application.startWithoutSocket()
            port = 0
        case .live:
            port = UInt16(try await application.start())
        }
    }

    /// A client of it: over the socket when it listens, else handing requests over as values.
    public var client: RawHTTPClient { port == 0 ? RawHTTPClient(application: application) : RawHTTPClient(port: port) }

    /// What the application logged so far, one line per event.
    public var log: String { lines.text }

    /// Drains and stops it (in-flight requests finish first).
    public func stop() async { await application.shutdown(deadline: .seconds(5)) }
}

/// Keeps log lines in memory (the newest 10,000), formatted like the text log. A value, like
/// swift-log's own handlers: each logger has its level and metadata, the lines are shared.
struct MemoryLogHandler: LogHandler {
    let lines = MemoryLogLines()
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    var text: String { lines.text }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let extra = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " ")
        lines.append("\(event.level) \(event.message)\(extra)")
    }
}

/// The lines every copy of a ``MemoryLogHandler`` writes to; with a run log directory
/// (`PARLEY_SERVER_LOGS`), also appended to `parley-in-process-<uuid>.log` there, where
/// deploy/test's leak check reads every server's log.
final class MemoryLogLines: Sendable {
    private let lines = Mutex<[String]>([])
    private let file: Mutex<FileHandle?> = Mutex(MemoryLogLines.openLogFile())

    private static func openLogFile() -> FileHandle? {
        guard let directory = ServerLogs.directory else { return nil }
        let path = "\(directory)/parley-in-process-\(UUID().uuidString).log"
        guard FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
        return FileHandle(forWritingAtPath: path)
    }

    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    func append(_ line: String) {
        lines.withLock {
            if $0.count >= 10_000 { $0.removeFirst($0.count / 2) }
            $0.append(line)
        }
        file.withLock { $0?.write(Data((line + "\n").utf8)) }
    }
}

/// Access-log lines of an in-process server, kept with its other log lines.
struct MemoryAccessLogSink: AccessLogSink {
    let lines: MemoryLogLines

    func write(_ batch: UnsafeRawBufferPointer) {
        for line in String(decoding: batch, as: UTF8.self).split(separator: "\n") { lines.append(String(line)) }
    }
}
