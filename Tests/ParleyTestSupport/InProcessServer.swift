import Foundation
import Logging
public import ParleyHTTP
import ParleyPostgres
public import ParleyServer
import Synchronization

/// A ``ParleyApplication`` served from the test process on an ephemeral port: the same pool,
/// listeners, caches and HTTP server `parley serve` runs, without the cost of a child process.
/// Its log lines are kept in memory (``log``) for failure reports and log assertions.
public final class InProcessServer: Sendable {
    /// The running application.
    public let application: ParleyApplication
    /// The port it listens on.
    public let port: UInt16
    private let lines: MemoryLogHandler

    /// Starts an application on the test database (or `databaseURL`), port 0, small pools.
    public init(
        databaseURL: String? = nil, configure: (inout ServiceConfiguration) -> Void = { _ in },
        http configureHTTP: (inout HTTPServerConfiguration) -> Void = { _ in }
    ) async throws {
        var http = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        http.loopThreads = 2
        http.responderThreads = 4
        http.accessLogPath = ParleyService.accessLogPath
        configureHTTP(&http)
        var service = ServiceConfiguration()
        service.migrationsDirectory = TestEnvironment.migrations.path
        configure(&service)
        var database = PostgresConfiguration(url: try databaseURL ?? TestEnvironment.databaseURL())
        database.maximumConnections = 4
        database.applicationName = "parley-in-process"
        let handler = MemoryLogHandler()
        var logger = Logger(label: "parley") { _ in handler }
        logger.logLevel = .info
        lines = handler
        application = try ParleyApplication(http: http, service: service, database: database, logger: logger)
        port = UInt16(try await application.start())
    }

    /// What the application logged so far, one line per event.
    public var log: String { lines.text }

    /// Drains and stops it (in-flight requests finish first).
    public func stop() async { await application.shutdown(deadline: .seconds(5)) }
}

/// Keeps log lines in memory (the newest 10,000), formatted like the text log.
final class MemoryLogHandler: LogHandler, Sendable {
    private let lines = Mutex<[String]>([])
    private let settings = Mutex<(level: Logger.Level, metadata: Logger.Metadata)>((.info, [:]))

    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    var metadata: Logger.Metadata {
        get { settings.withLock { $0.metadata } }
        set { settings.withLock { $0.metadata = newValue } }
    }

    var logLevel: Logger.Level {
        get { settings.withLock { $0.level } }
        set { settings.withLock { $0.level = newValue } }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { settings.withLock { $0.metadata[key] } }
        set { settings.withLock { $0.metadata[key] = newValue } }
    }

    func log(event: LogEvent) {
        let extra = event.metadata.map {
            " " + $0.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " ")
        }
        let line = "\(event.level) \(event.message)\(extra ?? "")"
        lines.withLock {
            if $0.count >= 10_000 { $0.removeFirst($0.count / 2) }
            $0.append(line)
        }
    }
}
