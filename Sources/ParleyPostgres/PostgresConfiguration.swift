public import Foundation

/// How to reach Postgres and every limit the pool enforces (STYLE.md, convention 5).
public struct PostgresConfiguration: Sendable {
    /// The environment variable the URL is read from.
    public static let environmentVariable = "PARLEY_DATABASE_URL"

    /// A `postgres://` URL or a libpq conninfo string (`host=… dbname=…`).
    public var url: String
    /// Reported to the server as `application_name` unless the URL sets one. Default `parley`.
    public var applicationName: String = "parley"
    /// A second URL (or conninfo) for the one `LISTEN` connection, when the main URL goes through
    /// a transaction-pooling PgBouncer, which cannot keep a `LISTEN` alive. `nil` uses ``url``.
    public var listenURL: String?
    /// How long opening one connection to one host may take, TCP and TLS and authentication
    /// together, after which the attempt fails with ``PostgresError/Kind-swift.struct/connectionFailed``
    /// (or, with a multi-host URL, moves on to the next host, as libpq's own `connect_timeout`
    /// does per host). Short, so a request that needs an unreachable database is answered 503
    /// within a second. Default 800 ms.
    public var connectTimeout: Duration = .milliseconds(800)
    /// With a multi-host URL, how long a host that let a connection attempt run into
    /// ``connectTimeout`` is tried only after every other host: a frozen primary (its port open,
    /// nothing answering) then costs one timeout, not one per new connection. Default 5 s.
    public var hostQuarantine: Duration = .seconds(5)
    /// The client-side deadline for every statement (or pipeline) on a pooled connection: no
    /// answer within it and the connection is closed and the statement fails with
    /// ``PostgresError/Kind-swift.struct/connectionLost``. It bounds what the server cannot: a
    /// frozen or partitioned server whose kernel still acknowledges every packet, so neither
    /// `statement_timeout` nor TCP timeouts ever fire. `nil` waits as long as the server takes.
    /// Default `nil` (tools and migrations may run long statements); `parley serve` sets it.
    public var queryTimeout: Duration?
    /// libpq's `tcp_user_timeout`: how long sent data may stay unacknowledged before the kernel
    /// drops the connection (a host that vanished from the network). Default 5 s.
    public var tcpUserTimeout: Duration = .seconds(5)
    /// TCP keepalive: idle time before the first probe; probes then follow every second and
    /// three unanswered ones drop the connection (libpq's `keepalives_*`). It finds a dead peer
    /// under an idle connection, such as the `LISTEN` one. Default 5 s.
    public var keepaliveIdle: Duration = .seconds(5)
    /// Consecutive failed connection attempts after which the pool's circuit breaker opens and
    /// refuses new connections at once, instead of making every request wait. Default 3.
    public var breakerFailureThreshold: Int = 3
    /// How long the breaker stays open before one caller probes with a real connection attempt;
    /// it doubles after each failed probe, up to ``breakerMaximumBackoff``. Default 250 ms.
    public var breakerInitialBackoff: Duration = .milliseconds(250)
    /// The longest the breaker stays open between probes. Default 2 s.
    public var breakerMaximumBackoff: Duration = .seconds(2)
    /// The most connections the pool opens at once. Default 10.
    public var maximumConnections: Int = 10
    /// How long a caller waits for a free connection before ``PostgresError/Kind-swift.struct/poolTimeout``.
    /// Default 5 s.
    public var acquireTimeout: Duration = .seconds(5)
    /// A connection idle for longer than this is pinged (`SELECT 1`) before reuse. Default 30 s.
    public var healthCheckAfterIdle: Duration = .seconds(30)
    /// How long a ``GroupCommitter`` holds the first unit of a batch open for others to join
    /// while a batch slot is free. Zero sends at once; batches then form only while earlier
    /// ones are committing (which is when batching pays). Default 0.
    public var groupCommitWindow: Duration = .zero
    /// The most units one group-committed transaction carries. Default 64.
    public var groupCommitMaximumUnits: Int = 64
    /// How many group-committed transactions may be in flight at once, each on its own
    /// connection; further units wait and join the next batch. Capped at half of
    /// ``maximumConnections`` (at least 1), so waiting batches never starve the pool. Default 4.
    public var groupCommitConcurrentBatches: Int = 4
    /// Server-side `statement_timeout` for every statement; `nil` leaves the server's. Default `nil`.
    public var statementTimeout: Duration?
    /// How many statements each connection keeps prepared (named, parsed and planned once per
    /// connection, issue 15 "Writes": parsing and planning a session change cost Postgres more
    /// than running it). A statement seen when the connection has this many runs unnamed. Zero
    /// prepares nothing: what a transaction-pooling PgBouncer before 1.21 needs, since it may run
    /// a statement on another server connection than the one it was prepared on. Default 100.
    public var maximumPreparedStatements: Int = 100

    /// Settings for `url` with every default.
    public init(url: String) {
        self.url = url
    }

    /// Settings from ``environmentVariable``; throws a configuration error when it is unset or empty.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> PostgresConfiguration {
        guard let url = environment[environmentVariable], !url.isEmpty else {
            throw PostgresError(
                .configuration,
                message: "\(environmentVariable) is not set (a postgres:// URL or libpq conninfo string)")
        }
        return PostgresConfiguration(url: url)
    }

    /// libpq keyword/value pairs: our defaults first and the URL last, so the URL's own values win
    /// (libpq keeps the last value of a repeated keyword, and expands `dbname` when it is a URL).
    var connectionParameters: [(String, String)] {
        var options =
            "-c TimeZone=UTC -c DateStyle=ISO,YMD -c bytea_output=hex -c IntervalStyle=iso_8601 -c client_min_messages=warning"
        if let statementTimeout { options += " -c statement_timeout=\(statementTimeout.wholeMilliseconds)" }
        return [
            ("application_name", applicationName),
            // A backstop only: openConnection enforces connectTimeout itself, to the millisecond.
            ("connect_timeout", String(max(2, connectTimeout.components.seconds + 1))),
            ("client_encoding", "UTF8"),
            ("keepalives", "1"),
            ("keepalives_idle", String(max(1, keepaliveIdle.components.seconds))),
            ("keepalives_interval", "1"),
            ("keepalives_count", "3"),
            ("tcp_user_timeout", String(tcpUserTimeout.wholeMilliseconds)),
            ("options", options),
            ("dbname", url),
        ]
    }

    /// The settings for the `LISTEN` connection: these, on ``listenURL`` when one is set. No
    /// request waits for it, so it connects with a patient timeout (at least 5 s) instead of
    /// the short one that makes requests fail fast: on a loaded host a short one only churns.
    var listenConfiguration: PostgresConfiguration {
        var configuration = self
        if let listenURL, !listenURL.isEmpty { configuration.url = listenURL }
        configuration.connectTimeout = max(connectTimeout, .seconds(5))
        return configuration
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down (for `poll(2)` and server settings).
    var wholeMilliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
