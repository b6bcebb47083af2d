import ArgumentParser
import Foundation
import Logging
import ParleyHTTP
import ParleyServer

/// `parley serve`: Run the Parley HTTP service.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the Parley HTTP service.")

    @Option(help: "Address to bind.")
    var host = "127.0.0.1"

    @Option(help: "Port to bind; 0 picks a free one (the first log line names it).")
    var port = 8080

    @Option(help: "Event-loop threads (default: one per core).")
    var threads: Int?

    @Option(help: "PEM certificate chain; serves HTTPS together with --tls-key.")
    var tlsCert: String?

    @Option(help: "PEM private key for --tls-cert.")
    var tlsKey: String?

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var dataKeys: DataKeyOptions

    @Option(help: "Require this Parley-Client-Key on client endpoints (default: open).")
    var clientKey: String?

    @Option(help: "Channel served when a client names none.")
    var defaultChannel = "production"

    @Option(help: "Folder of SQL migrations /readyz checks the database against.")
    var migrations = "Migrations"

    @Option(
        help: ArgumentHelp(
            "Postgres URL for LISTEN/NOTIFY: a direct connection when --database-url goes through a "
                + "transaction-pooling PgBouncer (default: $PARLEY_LISTEN_DATABASE_URL, else the database URL)."))
    var listenDatabaseUrl: String?

    @Option(help: "Database connections in the pool.")
    var databaseConnections = 16

    @Option(help: "Seconds a session may stay idle before it expires (410).")
    var sessionTtl: Double = 86_400

    @Option(help: "Seconds between sweeps that mark idle sessions expired.")
    var sessionSweepInterval: Double = 60

    @Flag(inversion: .prefixedNo, help: "Log one line per request (method, path, status, bytes, duration).")
    var accessLog = true

    @Flag(help: "Serve only /healthz, without a database (for trying the HTTP layer).")
    var withoutDatabase = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key must be given together.")
        }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1.") }
        guard (1...1000).contains(databaseConnections) else {
            throw ValidationError("--database-connections must be between 1 and 1000.")
        }
        guard sessionTtl > 0, sessionSweepInterval > 0 else {
            throw ValidationError("--session-ttl and --session-sweep-interval must be positive.")
        }
        if !withoutDatabase { _ = try database.resolvedURL() }
    }

    func run() async throws {
        var configuration = HTTPServerConfiguration(host: host, port: port)
        if let threads { configuration.loopThreads = threads }
        configuration.accessLog = accessLog
        configuration.accessLogPath = ParleyService.accessLogPath
        if let tlsCert, let tlsKey {
            configuration.tls = TLSConfiguration(certificatePath: tlsCert, privateKeyPath: tlsKey)
        }
        var logger = Logger(label: "parley")
        logger.logLevel = .info
        guard !withoutDatabase else {
            try await ServeCommand.serve(
                responder: ServeCommand.makeRouter(), configuration: configuration, logger: logger)
            return
        }
        var service = ServiceConfiguration()
        service.clientKey = clientKey
        service.defaultChannel = defaultChannel
        service.migrationsDirectory = migrations
        service.sessionIdleSeconds = sessionTtl
        service.sessionSweepSeconds = sessionSweepInterval
        service.dataKeyring = try dataKeys.keyring()
        if service.dataKeyring.currentId == nil {
            logger.warning("no data key (PARLEY_DATA_KEY_FILE): answers to sensitive fields will be refused")
        }
        let pool = try database.makePool(
            maximumConnections: databaseConnections,
            listenURL: listenDatabaseUrl ?? ProcessInfo.processInfo.environment["PARLEY_LISTEN_DATABASE_URL"])
        let parley = ParleyService(configuration: service, pool: pool, logger: logger)
        do {
            try await parley.start()
        } catch {
            throw ValidationError("Cannot reach the database (\(error)); is Postgres running and migrated?")
        }
        defer {
            parley.shutdown()
            pool.shutdown()
        }
        try await ServeCommand.serve(responder: parley.makeRouter(), configuration: configuration, logger: logger)
    }

    /// The routes `parley serve --without-database` mounts.
    static func makeRouter() -> Router {
        var router = Router()
        router.inline("GET", "/healthz") { _, _ in .json(#"{"status":"ok"}"#) }
        return router
    }

    /// Serves `responder` (a `Router`, possibly wrapped in middleware) until SIGTERM/SIGINT,
    /// then drains gracefully and returns (exit 0).
    static func serve(responder: any HTTPResponder, configuration: HTTPServerConfiguration, logger: Logger)
        async throws
    {
        let server = try HTTPServer(configuration: configuration, responder: responder, logger: logger)
        try await server.run()
    }
}
