public import Logging
public import ParleyHTTP
public import ParleyPostgres
import Synchronization

/// One running Parley: the database pool, the release and session listeners, the caches and
/// the HTTP server, started and stopped in the one order that loses nothing.
///
/// Start: pool → listeners (so no release is missed once traffic arrives) → HTTP server.
/// Shutdown: HTTP server drains first (in-flight requests still need the pool), then the
/// listeners and the sweeper stop, then the pool closes. `parley serve` runs it until a signal;
/// tests run it in process on port 0 and call ``shutdown(deadline:)``.
public final class ParleyApplication: Sendable {
    /// The HTTP settings (host, port, threads, limits, TLS, access log).
    public let http: HTTPServerConfiguration
    /// The pool, or nil when serving without a database (only `/healthz`).
    public let pool: PostgresPool?
    /// The service, or nil without a database.
    public let service: ParleyService?
    private let server: HTTPServer
    private let logger: Logger
    private let started = Mutex(false)

    /// Builds every part; nothing connects or binds until ``start()`` or ``run()``.
    /// - Parameters:
    ///   - database: the pool's settings; nil serves only `/healthz` (for trying the HTTP layer).
    public init(
        http: HTTPServerConfiguration, service configuration: ServiceConfiguration = ServiceConfiguration(),
        database: PostgresConfiguration?, logger: Logger, databaseLogger: Logger? = nil
    ) throws {
        self.http = http
        self.logger = logger
        if let database {
            let pool = PostgresPool(
                configuration: database, logger: databaseLogger ?? Self.databaseLogger())
            let service = ParleyService(configuration: configuration, pool: pool, logger: logger)
            self.pool = pool
            self.service = service
            let identifier = RequestIdentifier(maxLength: configuration.maxRequestIdLength)
            let routers = service.makeRouters(count: http.loopThreads).map { $0.wrapped(in: identifier) }
            server = try HTTPServer(configuration: http, responders: { routers[$0 % routers.count] }, logger: logger)
        } else {
            pool = nil
            service = nil
            let responder = Self.healthOnlyRouter().wrapped(
                in: RequestIdentifier(maxLength: configuration.maxRequestIdLength))
            server = try HTTPServer(configuration: http, responder: responder, logger: logger)
        }
    }

    /// Connects the listeners, then binds and starts serving; returns the bound port (useful
    /// with port 0). Throws ``StartFailure`` when the database cannot be reached.
    @discardableResult
    public func start() async throws -> Int {
        try await startService()
        do {
            return try server.start()
        } catch {
            stopService()
            throw error
        }
    }

    /// Connects the listeners and starts the responder threads, binding no socket: then
    /// ``respond(to:)`` answers requests handed over as values, through the same request-id,
    /// authentication, metrics and problem chain `parley serve` runs (tests' router mode).
    public func startWithoutSocket() async throws {
        try await startService()
        server.startWithoutSocket()
    }

    /// Answers one request through the whole responder chain without a socket (see
    /// ``startWithoutSocket()`` and `HTTPServer.respond(to:remoteAddress:)`).
    public func respond(to request: HTTPRequest) async -> HTTPResponse { await server.respond(to: request) }

    /// The bound port once started.
    public var port: Int? { server.port }

    /// Drains the HTTP server (in-flight requests finish; stragglers are closed at `deadline`),
    /// then stops the listeners and closes the pool. Safe to call once after ``start()``.
    public func shutdown(deadline: Duration) async {
        await server.shutdown(deadline: deadline)
        stopService()
    }

    /// `parley serve`: starts, logs `listening on HOST:PORT`, serves until SIGTERM or SIGINT,
    /// drains within `http.shutdownDeadline`, then stops the listeners and the pool.
    public func run() async throws {
        try await startService()
        defer { stopService() }
        try await server.run()
    }

    private func startService() async throws {
        guard let service else { return }
        started.withLock { $0 = true }
        do {
            try await service.start()
        } catch {
            stopService()
            throw StartFailure(underlying: error)
        }
    }

    private func stopService() {
        guard
            started.withLock({ was in
                defer { was = false }; return was
            })
        else { return }
        service?.shutdown()
        pool?.shutdown()
    }

    /// The routes served without a database.
    static func healthOnlyRouter() -> Router {
        var router = Router()
        router.inline("GET", "/healthz") { _, _ in .json(#"{"status":"ok"}"#) }
        return router
    }

    /// The database logs only warnings: connection chatter would drown the access log.
    private static func databaseLogger() -> Logger {
        var logger = Logger(label: "parley.postgres")
        logger.logLevel = .warning
        return logger
    }

    /// The database could not be reached while starting.
    public struct StartFailure: Error, CustomStringConvertible {
        /// What the pool reported.
        public let underlying: any Error
        public var description: String {
            "Cannot reach the database (\(underlying)); is Postgres running and migrated?"
        }
    }
}
