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

    /// The statements in flight: who awaits them and what their results said so far.
    ///
    /// Outside pipeline mode there is one statement (a script's several results count as one:
    /// its last rows, its first error). In pipeline mode each statement's results end with a
    /// `NULL` result and the whole pipeline with `PGRES_PIPELINE_SYNC`.
    struct Pending {
        let query: String?
        let continuation: CheckedContinuation<[Result<PostgresRows, PostgresError>], any Error>
        let expected: Int
        let pipelined: Bool
        var results: [Result<PostgresRows, PostgresError>] = []
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
        return try await send(query: query.sql) { connection in sendStatement(query, on: connection) }[0].get()
    }

    /// Sends `queries` in libpq pipeline mode, all in one round trip, and returns each one's
    /// outcome in order. Once one fails, the server skips the rest up to the pipeline's end
    /// (each reported as a failure that says so). Wrap them in `BEGIN`…`COMMIT` for atomicity.
    /// Throws only when the connection broke.
    func pipeline(_ queries: [PostgresQuery]) async throws -> [Result<PostgresRows, PostgresError>] {
        guard !queries.isEmpty else { return [] }
        logger.debug("postgres pipeline", metadata: ["statements": "\(queries.count)"])
        return try await send(query: "(pipeline of \(queries.count))", expected: queries.count, pipelined: true) {
            connection in
            guard PQenterPipelineMode(connection) == 1 else { return false }
            for query in queries where !sendStatement(query, on: connection) { return false }
            return PQpipelineSync(connection) == 1
        }
    }

    /// Runs several `;`-separated statements with the simple query protocol (no parameters).
    ///
    /// Unsafe by name: the text is sent as is. Meant for migration files and fixed DDL.
    public func execute(unsafeScript script: String) async throws {
        logger.debug("postgres script", metadata: ["bytes": "\(script.utf8.count)"])
        _ = try await send(query: "(script)") { connection in PQsendQuery(connection, script) == 1 }[0].get()
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

    /// Sends statements with `start` and suspends until the poller has read all their results.
    private func send(
        query: String?, expected: Int = 1, pipelined: Bool = false, _ start: (OpaquePointer) -> Bool
    ) async throws -> [Result<PostgresRows, PostgresError>] {
        try await withCheckedThrowingContinuation { continuation in
            var readAhead = false
            let failure: PostgresError? = handle.withLock { handle in
                guard let connection = handle.connection else {
                    return PostgresError(.connectionLost, message: "the connection is closed", query: query)
                }
                guard handle.pending == nil else {
                    return PostgresError(.server, message: "a statement is already running on this connection")
                }
                handle.lastUsed = .now
                guard start(connection), flush(connection, readAhead: &readAhead) else {
                    let error = connectionError(connection, query: query)
                    if pipelined {  // half a pipeline may have been sent: never reuse the connection
                        PostgresPoller.shared.forget(id: pollID, socket: socket)
                        PQfinish(connection)
                        handle.connection = nil
                    }
                    return error
                }
                handle.pending = Pending(
                    query: query, continuation: continuation, expected: expected, pipelined: pipelined)
                return nil
            }
            if let failure {
                continuation.resume(throwing: failure)
            } else if readAhead {
                // Results may already sit in libpq's buffer, where no epoll wake-up would report them.
                socketReadable()
            } else {
                PostgresPoller.shared.watch(self, id: pollID, socket: socket)
            }
        }
    }

    /// Called by the poller when the socket is readable: reads what arrived and, once the
    /// statements' results are complete, resumes their caller; else waits for more.
    func socketReadable() {
        enum Next {
            case done(
                CheckedContinuation<[Result<PostgresRows, PostgresError>], any Error>,
                Result<[Result<PostgresRows, PostgresError>], PostgresError>)
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
                if pending.read(from: connection) {
                    handle.pending = nil
                    return .done(pending.continuation, .success(pending.results))
                }
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

extension PostgresConnection.Pending {
    /// Takes the next result libpq has ready (the caller checked `PQisBusy`); true once every
    /// statement is answered (and, in pipeline mode, the pipeline ended and was left).
    mutating func read(from connection: OpaquePointer) -> Bool {
        guard let result = PQgetResult(connection) else {
            // One statement's results are complete.
            if results.count < expected {
                results.append(error.map { .failure($0) } ?? .success(rows ?? .empty))
                rows = nil
                error = nil
            }
            return !pipelined
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_PIPELINE_SYNC:
            PQexitPipelineMode(connection)
            return true
        case PGRES_PIPELINE_ABORTED:
            error = PostgresError(
                .server, message: "skipped: an earlier statement in the same pipeline failed", query: query)
        default:
            do {
                rows = try rowsOrError(result, connection: connection, query: query)
            } catch let failure as PostgresError {
                error = error ?? failure
            } catch {}
        }
        return false
    }
}

/// Sends what libpq still buffers; false when the connection broke. Statements are small,
/// so waiting for the socket here is rare and short (a long pipeline may fill the socket while
/// the server answers; its answers are read meanwhile, as libpq requires, and `readAhead` says so).
private func flush(_ connection: OpaquePointer, readAhead: inout Bool) -> Bool {
    while true {
        switch PQflush(connection) {
        case 0: return true
        case 1:
            var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLOUT | POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 1000)
            if descriptor.revents & Int16(POLLIN) != 0 {
                readAhead = true
                if PQconsumeInput(connection) == 0 { return false }
            }
        default: return false
        }
    }
}
