import CLibPQ
import Dispatch
import Foundation
public import Logging
import Synchronization

/// One libpq connection. Its blocking calls run on the connection's own dispatch queue, so
/// awaiting a query never blocks a Swift concurrency thread.
///
/// Use it through ``PostgresPool/withConnection(callerIsolation:_:)``: one holder at a time.
/// It is `Sendable` because every use of the `PGconn` happens under its mutex.
public final class PostgresConnection: Sendable {
    struct Handle: ~Copyable {
        var connection: OpaquePointer?
        var lastUsed: ContinuousClock.Instant

        deinit { if let connection { PQfinish(connection) } }
    }

    private let handle: Mutex<Handle>
    private let queue: DispatchQueue
    let logger: Logger

    private init(connection: sending OpaquePointer, queue: DispatchQueue, logger: Logger) {
        self.handle = Mutex(Handle(connection: connection, lastUsed: .now))
        self.queue = queue
        self.logger = logger
    }

    /// Opens a connection; throws ``PostgresError/Kind-swift.struct/connectionFailed`` with libpq's reason.
    public static func connect(
        configuration: PostgresConfiguration, logger: Logger = Logger(label: "parley.postgres")
    ) async throws -> PostgresConnection {
        let queue = DispatchQueue(label: "parley.postgres.connection")
        let parameters = configuration.connectionParameters
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                do {
                    let connection = try openConnection(parameters)
                    continuation.resume(
                        returning: PostgresConnection(connection: connection, queue: queue, logger: logger))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Runs `query` with `PQexecParams` and returns its rows (empty for commands).
    @discardableResult
    public func query(_ query: PostgresQuery) async throws -> PostgresRows {
        logger.debug("postgres query", metadata: ["sql": "\(query.sql)", "binds": "\(query.binds.count) redacted"])
        return try await run { connection in try executeStatement(query, on: connection) }
    }

    /// Runs several `;`-separated statements with the simple query protocol (no parameters).
    ///
    /// Unsafe by name: the text is sent as is. Meant for migration files and fixed DDL.
    public func execute(unsafeScript script: String) async throws {
        logger.debug("postgres script", metadata: ["bytes": "\(script.utf8.count)"])
        try await run { connection in
            guard let result = PQexec(connection, script) else { throw connectionError(connection, query: nil) }
            defer { PQclear(result) }
            let status = PQresultStatus(result)
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY else {
                throw resultError(result, connection: connection, query: "(script)")
            }
        }
    }

    /// The server process ID serving this connection (for `pg_terminate_backend`, logs).
    public var backendPID: Int32 {
        handle.withLock { handle in handle.connection.map { PQbackendPID($0) } ?? 0 }
    }

    /// False once the connection broke or was closed; the pool then drops it.
    public var isOpen: Bool {
        handle.withLock { handle in
            guard let connection = handle.connection else { return false }
            return PQstatus(connection) == CONNECTION_OK
        }
    }

    /// True when a transaction is open (or aborted) on this connection.
    var isInTransaction: Bool {
        handle.withLock { handle in
            guard let connection = handle.connection else { return false }
            let status = PQtransactionStatus(connection)
            return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
        }
    }

    /// Closes the connection now; later queries fail with `connectionLost`.
    public func close() {
        handle.withLock { handle in
            if let connection = handle.connection { PQfinish(connection) }
            handle.connection = nil
        }
    }

    /// Whether an idle connection can be handed out: not broken, nothing unexpected waiting on
    /// its socket (a terminated backend leaves an error and EOF there), and a successful ping
    /// when it idled longer than `pingAfterIdle` or looked suspicious.
    func checkHealth(pingAfterIdle: Duration) async -> Bool {
        let verdict: Bool? = handle.withLock { handle in
            guard let connection = handle.connection, PQstatus(connection) == CONNECTION_OK else { return false }
            let socket = PQsocket(connection)
            guard socket >= 0 else { return false }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 0) != 0 {
                // Nothing should arrive on an idle connection: read it, then ping to be sure.
                if PQconsumeInput(connection) == 0 || PQstatus(connection) != CONNECTION_OK { return false }
                return nil
            }
            return ContinuousClock.now - handle.lastUsed > pingAfterIdle ? nil : true
        }
        if let verdict { return verdict }
        do {
            try await query("SELECT 1")
            return true
        } catch {
            return false
        }
    }

    private func run<T: Sendable>(_ work: @escaping @Sendable (OpaquePointer) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(
                    with: Result {
                        try self.handle.withLock { handle in
                            guard let connection = handle.connection else {
                                throw PostgresError(.connectionLost, message: "the connection is closed")
                            }
                            handle.lastUsed = .now
                            return try work(connection)
                        }
                    })
            }
        }
    }
}
