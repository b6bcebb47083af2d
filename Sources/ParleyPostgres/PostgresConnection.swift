import CLibPQ
import Dispatch
import Foundation
public import Logging
import Synchronization

/// One libpq connection in non-blocking mode: a query is sent by the awaiting task and its
/// result read by ``PostgresPoller``'s thread when the socket turns readable, so awaiting a
/// query never blocks a Swift concurrency thread. Only connecting blocks, on a dispatch queue,
/// and never longer than ``PostgresConfiguration/connectTimeout``.
///
/// Use it through ``PostgresPool/withConnection(callerIsolation:_:)``: one holder at a time.
/// It is `Sendable` because every use of the `PGconn` happens under its mutex.
public final class PostgresConnection: Sendable {
    struct Handle: ~Copyable {
        var connection: OpaquePointer?
        var lastUsed: ContinuousClock.Instant
        var pending: Pending?

        deinit { if let connection { PQfinish(connection) } }
    }

    /// The statement in flight: who awaits it and what its results said so far.
    struct Pending {
        let query: String?
        let continuation: CheckedContinuation<PostgresRows, any Error>
        var rows: PostgresRows?
        var error: PostgresError?
    }

    private let handle: Mutex<Handle>
    private let pollID = PostgresPoller.shared.makeID()
    private let socket: Int32
    let logger: Logger

    private init(connection: sending OpaquePointer, logger: Logger) {
        self.socket = PQsocket(connection)
        self.handle = Mutex(Handle(connection: connection, lastUsed: .now))
        self.logger = logger
    }

    /// Opens a connection; throws ``PostgresError/Kind-swift.struct/connectionFailed`` with libpq's reason.
    public static func connect(
        configuration: PostgresConfiguration, logger: Logger = Logger(label: "parley.postgres")
    ) async throws -> PostgresConnection {
        let queue = DispatchQueue(label: "parley.postgres.connection")
        let parameters = configuration.connectionParameters
        let timeout = configuration.connectTimeout
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                do {
                    let connection = try openConnection(parameters, timeout: timeout)
                    guard PQsetnonblocking(connection, 1) == 0 else {
                        let error = PostgresError(.connectionFailed, message: errorMessage(connection))
                        PQfinish(connection)
                        throw error
                    }
                    continuation.resume(
                        returning: PostgresConnection(connection: connection, logger: logger))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Runs `query` (`PQsendQueryParams`) and returns its rows (empty for commands).
    @discardableResult
    public func query(_ query: PostgresQuery) async throws -> PostgresRows {
        logger.debug("postgres query", metadata: ["sql": "\(query.sql)", "binds": "\(query.binds.count) redacted"])
        return try await send(query: query.sql) { connection in sendStatement(query, on: connection) }
    }

    /// Runs several `;`-separated statements with the simple query protocol (no parameters).
    ///
    /// Unsafe by name: the text is sent as is. Meant for migration files and fixed DDL.
    public func execute(unsafeScript script: String) async throws {
        logger.debug("postgres script", metadata: ["bytes": "\(script.utf8.count)"])
        try await send(query: "(script)") { connection in PQsendQuery(connection, script) == 1 }
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
        let pending = handle.withLock { handle in
            if let connection = handle.connection {
                PostgresPoller.shared.forget(id: pollID, socket: socket)
                PQfinish(connection)
            }
            handle.connection = nil
            defer { handle.pending = nil }
            return handle.pending
        }
        pending?.continuation.resume(throwing: PostgresError(.connectionLost, message: "the connection was closed"))
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

    /// Sends a statement with `start` and suspends until the poller has read all its results.
    @discardableResult
    private func send(query: String?, _ start: (OpaquePointer) -> Bool) async throws -> PostgresRows {
        try await withCheckedThrowingContinuation { continuation in
            let failure: PostgresError? = handle.withLock { handle in
                guard let connection = handle.connection else {
                    return PostgresError(.connectionLost, message: "the connection is closed", query: query)
                }
                guard handle.pending == nil else {
                    return PostgresError(.server, message: "a statement is already running on this connection")
                }
                handle.lastUsed = .now
                guard start(connection), flush(connection) else { return connectionError(connection, query: query) }
                handle.pending = Pending(query: query, continuation: continuation)
                return nil
            }
            if let failure {
                continuation.resume(throwing: failure)
            } else {
                PostgresPoller.shared.watch(self, id: pollID, socket: socket)
            }
        }
    }

    /// Called by the poller when the socket is readable: reads what arrived and, once the
    /// statement's results are complete, resumes its caller; else waits for more.
    func socketReadable() {
        enum Next {
            case done(CheckedContinuation<PostgresRows, any Error>, Result<PostgresRows, PostgresError>)
            case wait
            case nothing
        }
        let next: Next = handle.withLock { handle in
            guard let connection = handle.connection, var pending = handle.pending else { return .nothing }
            guard PQconsumeInput(connection) != 0 else {
                handle.pending = nil
                return .done(pending.continuation, .failure(connectionError(connection, query: pending.query)))
            }
            while PQisBusy(connection) == 0 {
                guard let result = PQgetResult(connection) else {
                    handle.pending = nil
                    let outcome = pending.error.map { Result.failure($0) } ?? .success(pending.rows ?? .empty)
                    return .done(pending.continuation, outcome)
                }
                do {
                    pending.rows = try rowsOrError(result, connection: connection, query: pending.query)
                } catch let error as PostgresError {
                    pending.error = pending.error ?? error
                } catch {}
                PQclear(result)
            }
            handle.pending = pending
            return .wait
        }
        switch next {
        case .done(let continuation, let outcome): continuation.resume(with: outcome)
        case .wait: PostgresPoller.shared.watch(self, id: pollID, socket: socket)
        case .nothing: break
        }
    }
}

/// Sends what libpq still buffers; false when the connection broke. Statements are small,
/// so waiting for the socket here is rare and short.
private func flush(_ connection: OpaquePointer) -> Bool {
    while true {
        switch PQflush(connection) {
        case 0: return true
        case 1:
            var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLOUT | POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 1000)
            if descriptor.revents & Int16(POLLIN) != 0, PQconsumeInput(connection) == 0 { return false }
        default: return false
        }
    }
}
