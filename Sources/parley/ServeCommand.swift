import ArgumentParser
import Foundation
import Glibc
import Logging
import ParleyHTTP
import ParleyPostgres
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

    @Option(
        help: """
            Threads that run requests off the event loops (default 16; about as many as the cores \
            are awake at once). Each connect to a database that does not answer holds one until \
            its timeout.
            """)
    var responderThreads: Int?

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

    @Option(help: "Session-write transactions in flight at once (group commit; at most half the pool).")
    var groupCommitBatches = 4

    @Option(help: "Sessions whose state each process keeps in memory; an answer to one reads nothing first.")
    var sessionCache = 20_000

    @Option(help: "Megabytes of session snapshots the cache counts (each session as twice its snapshot's size).")
    var sessionCacheMb = 16

    @Option(help: "glibc malloc arenas (fewer arenas, less RSS; $MALLOC_ARENA_MAX wins when set).")
    var mallocArenas = 2

    @Flag(
        inversion: .prefixedNo,
        help: "Return the heap's free pages to the system (malloc_trim) each time the server turns idle.")
    var idleMallocTrim = true

    @Option(
        help: "Seconds to wait for a new database connection before failing fast (503); per host of a multi-host URL.")
    var databaseConnectTimeout: Double = 0.8

    @Option(
        help: ArgumentHelp(
            "Seconds a database statement may go unanswered before its connection is dropped (503); 0 waits forever.",
            discussion:
                "Bounds what Postgres cannot: a frozen primary whose port stays open (see docs/operations/high-availability.md)."
        ))
    var databaseQueryTimeout: Double = 5

    @Option(help: "Seconds a session may stay idle before it expires (410).")
    var sessionTtl: Double = 86_400

    @Option(help: "Seconds between sweeps that mark idle sessions expired.")
    var sessionSweepInterval: Double = 60

    @Option(help: "Session event streams this process holds open; past it, 503 with Retry-After.")
    var liveMaxStreams = 10_000

    @Option(help: "Seconds a session event stream may stay silent before a heartbeat comment is sent.")
    var liveHeartbeat: Double = 15

    @OptionGroup var retention: RetentionOptions

    @Option(help: "Seconds between prunes of sessions past retention (one process at a time does the work).")
    var pruneInterval: Double = 3_600

    @Flag(help: "Also deliver webhooks to loopback and private addresses, and plain http to those only (development).")
    var webhookAllowPrivate = false

    @Option(
        help: ArgumentHelp(
            "parley-core.wasm (built by deploy/wasm-core) to serve at /studio/assets/parley-core.wasm.",
            discussion: "The studio then lints and previews locally; without it, it asks the server."))
    var coreModule: String?

    @Option(help: "Seconds before the first webhook retry; each further one doubles (plus jitter).")
    var webhookRetryBase: Double = 5

    @Option(help: "Webhook delivery attempts before a delivery is dead-lettered.")
    var webhookMaxAttempts = 10

    @Option(help: "Seconds a claimed webhook delivery stays leased; after a crash it is re-sent once this passes.")
    var webhookLease: Double = 60

    @Option(help: "Seconds between looks for due webhook deliveries.")
    var webhookPollInterval: Double = 1

    @Option(help: "PEM file of certificates trusted for https deliveries instead of the system store.")
    var webhookTrustedCertificates: String?

    @Flag(inversion: .prefixedNo, help: "Log one line per request (method, path, status, bytes, duration).")
    var accessLog = true

    @Option(help: "Log format: text (for people) or json (one object per line, for log pipelines).")
    var logFormat = LogFormat.text.rawValue

    @Flag(help: "Serve only /healthz, without a database (for trying the HTTP layer).")
    var withoutDatabase = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key must be given together.")
        }
        guard LogFormat(rawValue: logFormat) != nil else {
            throw ValidationError("--log-format must be text or json, not \"\(logFormat)\".")
        }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1.") }
        guard (1...1000).contains(databaseConnections) else {
            throw ValidationError("--database-connections must be between 1 and 1000.")
        }
        guard (1...64).contains(groupCommitBatches), (1...64).contains(mallocArenas) else {
            throw ValidationError("--group-commit-batches and --malloc-arenas must be between 1 and 64.")
        }
        guard (1...1_000_000).contains(sessionCache), (1...65_536).contains(sessionCacheMb) else {
            throw ValidationError(
                "--session-cache must be between 1 and 1,000,000 sessions and --session-cache-mb between 1 and 65,536."
            )
        }
        guard (0.05...60).contains(databaseConnectTimeout) else {
            throw ValidationError("--database-connect-timeout must be between 0.05 and 60 seconds.")
        }
        guard databaseQueryTimeout == 0 || (0.1...3600).contains(databaseQueryTimeout) else {
            throw ValidationError("--database-query-timeout must be 0 (no deadline) or between 0.1 and 3600 seconds.")
        }
        guard sessionTtl > 0, sessionSweepInterval > 0, pruneInterval > 0 else {
            throw ValidationError("--session-ttl, --session-sweep-interval and --prune-interval must be positive.")
        }
        guard webhookRetryBase > 0, webhookLease > 0, webhookPollInterval > 0, (1...100).contains(webhookMaxAttempts)
        else {
            throw ValidationError(
                "--webhook-retry-base, --webhook-lease and --webhook-poll-interval must be positive; "
                    + "--webhook-max-attempts 1 to 100.")
        }
        guard liveMaxStreams >= 0, liveHeartbeat > 0 else {
            throw ValidationError("--live-max-streams must not be negative and --live-heartbeat must be positive.")
        }
        if !withoutDatabase { _ = try database.resolvedURL() }
    }

    func run() async throws {
        if ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil { Self.limitMallocArenas(to: mallocArenas) }
        var configuration = HTTPServerConfiguration(host: host, port: port)
        if let threads { configuration.loopThreads = threads }
        if let responderThreads { configuration.responderThreads = max(1, responderThreads) }
        configuration.accessLog = accessLog
        configuration.streamHeartbeatInterval = .milliseconds(Int(liveHeartbeat * 1000))
        // Every stream holds a connection: room for all of them beside ordinary requests.
        configuration.maxConnections = max(configuration.maxConnections, liveMaxStreams + 1_000)
        configuration.accessLogPath = ParleyService.accessLogPath
        if let tlsCert, let tlsKey {
            configuration.tls = TLSConfiguration(certificatePath: tlsCert, privateKeyPath: tlsKey)
        }
        let format = LogFormat(rawValue: logFormat) ?? .text
        format.bootstrap()
        configuration.accessLogFields = format == .json
        // JSON lines all go to standard output, the access log's too.
        if format == .json { configuration.accessLogSink = FileDescriptorSink(fileDescriptor: 1) }
        var logger = Logger(label: "parley")
        logger.logLevel = .info
        if idleMallocTrim { IdleMemoryTrimmer(logger: logger).start() }
        var service = ServiceConfiguration()
        service.clientKey = clientKey
        service.defaultChannel = defaultChannel
        service.migrationsDirectory = migrations
        service.sessionIdleSeconds = sessionTtl
        service.sessionSweepSeconds = sessionSweepInterval
        service.liveMaxStreams = liveMaxStreams
        service.maxCachedSnapshots = sessionCache
        service.maxCachedSnapshotBytes = sessionCacheMb << 20
        service.defaultRetention = retention.period
        service.pruneSeconds = pruneInterval
        service.pruneBatch = retention.pruneBatch
        service.webhookAllowPrivate = webhookAllowPrivate
        if let coreModule { service.coreModule = try CoreModuleFile.read(coreModule) }
        service.webhookRetryBaseSeconds = webhookRetryBase
        service.webhookMaxAttempts = webhookMaxAttempts
        service.webhookLeaseSeconds = webhookLease
        service.webhookPollSeconds = webhookPollInterval
        service.webhookTrustedCertificates = webhookTrustedCertificates
        service.dataKeyring = try dataKeys.keyring()
        var database: PostgresConfiguration?
        if !withoutDatabase {
            if service.dataKeyring.currentId == nil {
                logger.warning("no data key (PARLEY_DATA_KEY_FILE): answers to sensitive fields will be refused")
            }
            database = PostgresConfiguration(url: try self.database.resolvedURL())
            database?.maximumConnections = databaseConnections
            database?.maximumPreparedStatements = self.database.databasePreparedStatements
            database?.groupCommitConcurrentBatches = groupCommitBatches
            database?.connectTimeout = .milliseconds(Int(databaseConnectTimeout * 1000))
            database?.queryTimeout = databaseQueryTimeout > 0 ? .milliseconds(Int(databaseQueryTimeout * 1000)) : nil
            database?.listenURL = listenDatabaseUrl ?? ProcessInfo.processInfo.environment["PARLEY_LISTEN_DATABASE_URL"]
        }
        let application = try ParleyApplication(
            http: configuration, service: service, database: database, logger: logger)
        do {
            try await application.run()
        } catch let failure as ParleyApplication.StartFailure {
            throw ValidationError(failure.description)
        }
    }
}

extension ServeCommand {
    /// glibc's `mallopt(M_ARENA_MAX, n)`. Every thread that meets a busy arena makes another (up to
    /// 8 per core) and their freed pages stay resident: most of the RSS growth under load
    /// (deploy/bench-service part 5). `<malloc.h>` is not in the Glibc module, so it is looked up.
    static func limitMallocArenas(to count: Int) {
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        let arenaMaximum: Int32 = -8  // M_ARENA_MAX in <malloc.h>
        guard let symbol = dlsym(nil, "mallopt") else { return }  // nil: RTLD_DEFAULT
        _ = unsafeBitCast(symbol, to: MallOpt.self)(arenaMaximum, Int32(count))
    }
}
