public import Logging
import Synchronization

/// A bounded, lazy, health-checked pool of connections, safe to share across tasks.
///
/// Connections open on demand up to ``PostgresConfiguration/maximumConnections``. A caller
/// that finds none free waits (without blocking a thread) up to
/// ``PostgresConfiguration/acquireTimeout``, then gets ``PostgresError/Kind-swift.struct/poolTimeout``.
/// Before reuse an idle connection is checked, so one killed by the server (restart,
/// `pg_terminate_backend`) is replaced transparently. When the database is unreachable a
/// ``CircuitBreaker`` refuses new connections at once with
/// ``PostgresError/Kind-swift.struct/connectionFailed`` and probes again after a backoff, so
/// callers fail fast while it is down and the pool recovers by itself when it returns.
public final class PostgresPool: Sendable {
    /// The settings the pool was created with.
    public let configuration: PostgresConfiguration
    let logger: Logger
    /// Every decision (who gets a connection, who waits, the breaker) lives in the state machine;
    /// the pool performs what it returns.
    let state: Mutex<PoolDecisions>
    /// The pool's time: every event reaches the state machine stamped with it.
    let clock = ContinuousClock()
    let listener = Mutex<PostgresListener?>(nil)

    /// A pool for `configuration`; opens no connection until one is needed.
    public init(configuration: PostgresConfiguration, logger: Logger = Logger(label: "parley.postgres")) {
        self.configuration = configuration
        self.logger = logger
        self.state = Mutex(PoolDecisions(configuration: configuration))
    }

    /// Lends a connection to `body` and takes it back afterwards, even when `body` throws.
    ///
    /// `body` runs on the caller's actor; each query inside suspends while libpq works on the
    /// connection's own thread. A transaction left open by `body` is rolled back.
    @discardableResult
    public func withConnection<T>(
        callerIsolation: isolated (any Actor)? = #isolation, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await withConnection(cancellable: true, body)
    }

    /// ``withConnection(callerIsolation:_:)``, where a caller that is not `cancellable` keeps
    /// waiting for a connection even when its task is cancelled (a group commit's leader carries
    /// other callers' units, which its own cancellation must not fail).
    func withConnection<T>(
        cancellable: Bool, callerIsolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        // An idle connection without an async call (``leaseNow()``); else the async acquire.
        let immediate = try leaseNow()
        let connection: PostgresConnection
        if case .ready(let ready) = immediate {
            connection = ready
        } else {
            connection = try await acquire(cancellable: cancellable, after: immediate)
        }
        let result: Result<T, any Error>
        do {
            result = .success(try await body(connection))
        } catch {
            result = .failure(error)
        }
        if connection.isOpen, connection.isInTransaction {
            do { try await connection.query("ROLLBACK") } catch { connection.close() }
        }
        release(connection)
        return try result.get()
    }

    /// Runs one statement on a pooled connection.
    @discardableResult
    public func query(_ query: PostgresQuery) async throws -> PostgresRows {
        try await withConnection { connection in try await connection.query(query) }
    }

    /// Runs one statement on its generic plan on a pooled connection (see
    /// ``PostgresConnection/queryPlannedGenerically(_:)``).
    public func queryPlannedGenerically(_ query: PostgresQuery) async throws -> PostgresRows {
        try await withConnection { connection in try await connection.queryPlannedGenerically(query) }
    }

    /// Runs `body` in a transaction on a pooled connection: commits when it returns, rolls back
    /// when it throws. With `maxAttempts` > 1 the whole transaction (and `body`) is run again
    /// after a serialization failure or deadlock, with a short randomised back-off.
    @discardableResult
    public func withTransaction<T>(
        isolation level: IsolationLevel = .readCommitted, maxAttempts: Int = 1,
        callerIsolation: isolated (any Actor)? = #isolation, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await withConnection { connection in
                    try await connection.withTransaction(isolation: level) { connection in try await body(connection) }
                }
            } catch let error as PostgresError where error.isTransient && attempt < maxAttempts {
                logger.debug(
                    "postgres transaction retried", metadata: ["attempt": "\(attempt)", "error": "\(error.kind)"])
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...5) * attempt))
                attempt += 1
            }
        }
    }

    /// Sends `NOTIFY channel, payload` (delivered to listeners when the current transaction commits).
    public func notify(channel: String, payload: String = "") async throws {
        try await query("SELECT pg_notify(\(channel), \(payload))")
    }

    /// Notifications on `channel` from a listener connection the pool opens on first use (see
    /// ``PostgresListener``). Returns once `LISTEN` is active.
    public func listen(channel: String) async throws -> AsyncStream<PostgresNotification> {
        try await sharedListener().notifications(channel: channel)
    }

    /// Runs `handler` on the listener's thread for each notification on `channel` (see
    /// ``PostgresListener/subscribe(channel:handler:)``): for a subscriber that only updates
    /// memory, which then costs no stream and no task switch per notification.
    public func listen(
        channel: String, handler: @escaping PostgresListener.Handler
    ) async throws -> PostgresSubscription {
        try await sharedListener().subscribe(channel: channel, handler: handler)
    }

    /// ``listen(channel:handler:)`` for a handler that reads each payload's bytes where libpq
    /// holds them (``PostgresListener/subscribe(channel:payloadHandler:)``).
    public func listen(
        channel: String, payloadHandler: @escaping PostgresListener.PayloadHandler
    ) async throws -> PostgresSubscription {
        try await sharedListener().subscribe(channel: channel, payloadHandler: payloadHandler)
    }

    /// The listener connection, opened on first use.
    private func sharedListener() -> PostgresListener {
        listener.withLock { listener in
            if let listener { return listener }
            let created = PostgresListener(configuration: configuration.listenConfiguration, logger: logger)
            listener = created
            return created
        }
    }

    /// How many connections are open, idle and awaited right now.
    public var statistics: (open: Int, idle: Int, waiting: Int) {
        state.withLock { machine in (machine.open, machine.idle.count, machine.waiters.count) }
    }

    /// Closes idle connections and the listener, fails waiters with
    /// ``PostgresError/Kind-swift.struct/poolClosed``; connections in use close when returned.
    public func shutdown() {
        perform(state.withLock { $0.shutdown() })
        listener.withLock { listener in listener?.shutdown() }
    }

    deinit {
        listener.withLock { listener in listener?.shutdown() }
    }
}
