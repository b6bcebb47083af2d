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
        var pending: Pending?
        /// The statements prepared on this connection, by text and parameter types.
        var statements = PreparedStatements()
        /// Set when a statement's error said the server is no longer fit (a demoted primary).
        var mustDiscard = false
        /// The last round trip's ``Pending/sent``, emptied, for the next one to fill: one array
        /// allocated and freed a round trip fewer (~400 instructions of every batch).
        var spareSent: [PreparedStatements.Sent] = []

        deinit { if let connection { PQfinish(connection) } }
    }

    /// The statements in flight: who awaits them and what their results said so far.
    ///
    /// Outside pipeline mode there is one statement (a script's several results count as one:
    /// its last rows, its first error). In pipeline mode each statement's results end with a
    /// `NULL` result and each segment (the statements up to a sync point, one implicit
    /// transaction unless they open their own) with `PGRES_PIPELINE_SYNC`.
    struct Pending {
        let query: String?
        /// Resumed exactly once: by whoever takes this `Pending` out of the handle, under its lock
        /// (``PostgresConnection/socketReadable()``, ``PostgresConnection/deadlinePassed()``,
        /// ``PostgresConnection/close()``), and never once it is out. Unsafe rather than checked:
        /// the checked one allocated a canary object per round trip to prove what this does.
        let continuation: UnsafeContinuation<[Result<PostgresRows, PostgresError>], any Error>
        let expected: Int
        let pipelined: Bool
        /// How many statements the first segment holds: `expected` when the pipeline has one
        /// sync point (its end), fewer when ``PostgresConnection/pipeline(_:syncAfter:)`` asked
        /// for a second one.
        var firstSegment: Int
        /// Sync points not yet reported; the pipeline ends with the last.
        var syncsLeft: Int
        /// How many statements' rows are kept (``PostgresConnection/pipeline(_:syncAfter:rowsKept:)``).
        let rowsKept: Int
        /// Where the segment being read starts in `results`.
        var segmentStart = 0
        /// When the caller stops waiting and the connection is closed (``PostgresConfiguration/queryTimeout``).
        let deadline: PollDeadline?
        /// What was sent, in order (empty: one statement of the caller's).
        var sent: [PreparedStatements.Sent] = []
        var results: [Result<PostgresRows, PostgresError>] = []
        var rows: PostgresRows?
        var error: PostgresError?
        /// How many items of `sent` are answered.
        var answered = 0
        /// A failed `Parse`: the error the statement that was to run it reports.
        var carried: PostgresError?
        /// Prepared statements to forget (by number): their `Parse` failed, or they no longer run.
        var forget: [Int] = []
        /// A result said the connection must not be used again (``PostgresError/discardsConnection``).
        var discards = false
    }

    private let handle: Mutex<Handle>
    /// This connection's registrations with ``PostgresPoller``.
    let pollID = PostgresPoller.shared.makeID()
    /// libpq's socket when the connection opened (it closes it itself when the connection is lost).
    let socket: Int32
    /// At most this many prepared statements (``PostgresConfiguration/maximumPreparedStatements``).
    private let preparing: Int
    /// ``PostgresConfiguration/queryTimeout``.
    private let queryTimeout: Duration?
    /// ``PostgresConfiguration/hostQuarantine``: how long a server whose statement ran past
    /// its deadline is tried last by new connections.
    private let hostQuarantine: Duration
    /// The server's `host:port`, as ``HostList`` names it.
    private let endpoint: String
    private let openedAt = ContinuousClock.now
    let logger: Logger

    private init(
        connection: sending OpaquePointer, preparing: Int, queryTimeout: Duration?, hostQuarantine: Duration,
        logger: Logger
    ) {
        self.socket = PQsocket(connection)
        self.endpoint =
            "\(PQhost(connection).map { String(cString: $0) } ?? ""):\(PQport(connection).map { String(cString: $0) } ?? "")"
        self.handle = Mutex(Handle(connection: connection))
        self.preparing = preparing
        self.queryTimeout = queryTimeout
        self.hostQuarantine = hostQuarantine
        self.logger = logger
    }

    /// Opens a connection; throws ``PostgresError/Kind-swift.struct/connectionFailed`` with libpq's reason.
    public static func connect(
        configuration: PostgresConfiguration, logger: Logger = Logger(label: "parley.postgres")
    ) async throws -> PostgresConnection {
        let queue = DispatchQueue(label: "parley.postgres.connection")
        let parameters = configuration.connectionParameters
        let timeout = configuration.connectTimeout
        let preparing = max(0, configuration.maximumPreparedStatements)
        let queryTimeout = configuration.queryTimeout
        let quarantine = configuration.hostQuarantine
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                do {
                    let connection = try openConnection(parameters, timeout: timeout, quarantine: quarantine)
                    guard PQsetnonblocking(connection, 1) == 0 else {
                        let error = PostgresError(.connectionFailed, message: errorMessage(connection))
                        PQfinish(connection)
                        throw error
                    }
                    continuation.resume(
                        returning: PostgresConnection(
                            connection: connection, preparing: preparing, queryTimeout: queryTimeout,
                            hostQuarantine: quarantine, logger: logger))
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
        return try await send(query: query.sql) { connection, handle in
            startStatements([query], pipelined: false, syncAfter: nil, on: connection, &handle)
        }[0].get()
    }

    /// Sends `queries` in libpq pipeline mode, all in one round trip, and returns each one's
    /// outcome in order. Once one fails, the server skips the rest up to the segment's end
    /// (each reported as a failure that says so). Throws only when the connection broke.
    ///
    /// Without `syncAfter` the pipeline is one segment; with it, a sync point follows the first
    /// `syncAfter` statements and the rest are a second segment. Statements of a segment that
    /// do not open a transaction of their own are one implicit transaction, committed at its
    /// sync point (rolled back when one of them fails), and a failure skips only the rest of its
    /// segment. When that commit fails (a deferred constraint, a full `NOTIFY` queue: Postgres
    /// reports it after the segment's last statement, before its sync), every statement of that
    /// implicit transaction reports the failure, even one whose rows had arrived: none of them
    /// is stored (statements up to an explicit `COMMIT` before it keep their outcome).
    ///
    /// Statements from index `rowsKept` on report their failure or `.success(.empty)`: for those
    /// run for their effect (a notification), libpq's result is cleared at once instead of kept
    /// in rows nobody reads (~450 instructions a result).
    func pipeline(_ queries: [PostgresQuery], syncAfter: Int? = nil, rowsKept: Int = .max) async throws
        -> [Result<PostgresRows, PostgresError>]
    {
        guard !queries.isEmpty else { return [] }
        let (description, boundary) = describe(queries, syncAfter: syncAfter)
        return try await send(
            query: description, expected: queries.count, syncAfter: boundary, rowsKept: rowsKept
        ) { connection, handle in
            startStatements(queries, pipelined: true, syncAfter: boundary, on: connection, &handle)
        }
    }

    /// A pipeline's name in errors and its sync point (`syncAfter` when it splits `queries`),
    /// logged; synchronous, so its temporaries are on the stack, not allocated from the task.
    private func describe(_ queries: [PostgresQuery], syncAfter: Int?) -> (String, Int?) {
        logger.debug("postgres pipeline", metadata: ["statements": "\(queries.count)"])
        let description =
            queries.count < Self.pipelineDescriptions.count
            ? Self.pipelineDescriptions[queries.count] : "(pipeline of \(queries.count))"
        return (description, syncAfter.flatMap { (1..<queries.count).contains($0) ? $0 : nil })
    }

    /// What errors call a pipeline of n statements, written once: interpolating the count cost
    /// every group commit ~600 instructions for a text only a failure shows.
    private static let pipelineDescriptions = (0..<16).map { "(pipeline of \($0))" }

    /// Sends `queries`, each as a prepared statement when this connection has it prepared (or
    /// prepares it now: `Parse` and run in one round trip, in pipeline mode), else unnamed; a
    /// sync point after the first `syncAfter` (in pipeline mode only: the caller asked for it).
    /// Called with the connection's lock held, from ``send(query:expected:syncAfter:_:)``: a
    /// synchronous step, not an async function of its own (each async call allocated its frame and
    /// every temporary of it from the task: ~7 allocations a statement here).
    private func startStatements(
        _ queries: [PostgresQuery], pipelined requested: Bool, syncAfter: Int?, on connection: OpaquePointer,
        _ handle: inout Handle
    ) -> (sent: [PreparedStatements.Sent], pipelined: Bool)? {
        assert(requested || queries.count == 1, "outside a pipeline, one statement at a time")
        // Outside a pipeline the caller sends one statement (``query(_:)``), which goes in one
        // when it must be prepared first: planned before anything is sent. A pipeline's
        // statements are planned as they are sent (no array of plans per batch).
        let single = requested ? nil : handle.statements.plan(queries[0], limit: preparing)
        let pipelined = requested || single?.prepare == true
        if pipelined, PQenterPipelineMode(connection) != 1 { return nil }
        // The previous round trip's storage, sized once: grown append by append, it was
        // reallocated on every batch.
        var sent: [PreparedStatements.Sent] = []
        swap(&sent, &handle.spareSent)
        sent.removeAll(keepingCapacity: true)
        sent.reserveCapacity(queries.count + 1)
        for index in queries.indices {
            let query = queries[index]
            if index == syncAfter, PQpipelineSync(connection) != 1 { return nil }
            let step = (index == 0 ? single : nil) ?? handle.statements.plan(query, limit: preparing)
            if step.prepare {
                guard let name = step.name, sendPrepare(query, named: name, on: connection) else { return nil }
                sent.append(.prepare(step.number ?? 0))
            }
            if let name = step.name {
                guard sendPrepared(query, named: name, on: connection) else { return nil }
            } else {
                guard sendStatement(query, on: connection) else { return nil }
            }
            sent.append(.statement(step.number))
        }
        if pipelined, PQpipelineSync(connection) != 1 { return nil }
        return (sent, pipelined)
    }

    /// Runs several `;`-separated statements with the simple query protocol (no parameters).
    ///
    /// Unsafe by name: the text is sent as is. Meant for migration files and fixed DDL.
    public func execute(unsafeScript script: String) async throws {
        logger.debug("postgres script", metadata: ["bytes": "\(script.utf8.count)"])
        _ = try await send(query: "(script)") { connection, _ in
            PQsendQuery(connection, script) == 1 ? ([], false) : nil
        }[0].get()
    }

    /// The server process ID serving this connection (for `pg_terminate_backend`, logs).
    public var backendPID: Int32 {
        handle.withLock { handle in handle.connection.map { PQbackendPID($0) } ?? 0 }
    }

    /// False once the connection broke, was closed, or reported an error that means it must not
    /// be used again (``PostgresError/discardsConnection``: its server was demoted); the pool
    /// then drops it.
    public var isOpen: Bool {
        handle.withLock { handle in
            guard let connection = handle.connection else { return false }
            return PQstatus(connection) == CONNECTION_OK && !handle.mustDiscard
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

    /// Stops the poller watching this connection, before `PQfinish`. Its socket only while libpq
    /// still holds it: a lost connection's socket was closed by libpq already, and its number
    /// may belong to another connection by now, whose registration removing it by number would
    /// take away (that connection's statement then waited forever; seen after a Postgres restart).
    private func unwatch(_ connection: OpaquePointer) {
        PostgresPoller.shared.forget(id: pollID, socket: PQsocket(connection) == socket ? socket : nil)
    }

    /// Asks the poller to report `socket` readable, or `deadline` passed. Called with the lock
    /// held: a close on another thread between a statement and its registration would leave the
    /// registration on a socket number that a newer connection may hold by then, which would then
    /// wait for an answer reported to this one. False when libpq no longer holds our socket (it
    /// closes it itself on a lost connection): the caller fails the statement instead.
    private func watchWhileLocked(_ connection: OpaquePointer, deadline: PollDeadline?) -> Bool {
        guard PQsocket(connection) == socket else { return false }
        PostgresPoller.shared.watch(self, id: pollID, socket: socket, deadline: deadline)
        return true
    }

    /// libpq's socket now: -1 once libpq closed it after losing the connection, nil once this
    /// connection is closed (tests).
    var libpqSocket: Int32? { handle.withLock { handle in handle.connection.map { PQsocket($0) } } }

    /// Closes the connection now; later queries fail with `connectionLost`.
    public func close() {
        let pending = handle.withLock { handle in
            if let connection = handle.connection {
                unwatch(connection)
                PQfinish(connection)
            }
            handle.connection = nil
            return handle.pending.take()
        }
        pending?.continuation.resume(throwing: PostgresError(.connectionLost, message: "the connection was closed"))
    }

    /// Whether an idle connection can be handed out: not broken, nothing unexpected waiting on
    /// its socket (a terminated backend leaves an error and EOF there), and a successful ping
    /// when `ping` (the pool's state machine decides: it idled too long) or it looked suspicious.
    func checkHealth(ping: Bool) async -> Bool {
        if let verdict = healthVerdict(ping: ping) { return verdict }
        return await answersPing()
    }

    /// Whether `SELECT 1` succeeds: the health check's last word.
    func answersPing() async -> Bool {
        do {
            try await query("SELECT 1")
            return true
        } catch {
            return false
        }
    }

    /// ``checkHealth(ping:)`` without the ping: the verdict, or nil when only a ping can tell.
    /// Synchronous, so handing out a healthy idle connection (every batch) makes no async call.
    func healthVerdict(ping: Bool) -> Bool? {
        // Its server stopped answering another connection's statement since this one opened.
        if let since = HostList.quarantinedSince(endpoint: endpoint), openedAt < since { return false }
        return handle.withLock { handle in
            guard let connection = handle.connection, PQstatus(connection) == CONNECTION_OK else { return false }
            let socket = PQsocket(connection)
            guard socket >= 0 else { return false }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 0) != 0 {
                // Nothing should arrive on an idle connection: read it, then ping to be sure.
                if PQconsumeInput(connection) == 0 || PQstatus(connection) != CONNECTION_OK { return false }
                return nil
            }
            return ping ? nil : true
        }
    }

    /// Sends statements with `start` and suspends until the poller has read all their results.
    /// `start` returns what it sent and whether in pipeline mode, or nil when sending failed.
    private func send(
        query: String?, expected: Int = 1, syncAfter: Int? = nil, rowsKept: Int = .max,
        _ start: (OpaquePointer, inout Handle) -> (sent: [PreparedStatements.Sent], pipelined: Bool)?
    ) async throws -> [Result<PostgresRows, PostgresError>] {
        // Unsafe continuation: see ``Pending/continuation`` for why it is resumed exactly once.
        try await withUnsafeThrowingContinuation { continuation in
            begin(continuation, query: query, expected: expected, syncAfter: syncAfter, rowsKept: rowsKept, start)
        }
    }

    /// ``send(query:expected:syncAfter:_:)``'s work, synchronous (its locks' closures and
    /// temporaries on the stack, not allocated from the task): sends with `start` and hands
    /// `continuation` to the ``Pending`` the poller completes, or resumes it with the failure.
    /// Never inlined: inlined into the async caller, its temporaries (the `Pending`, the deadline,
    /// the lock's state) were allocated from the task again, six allocations a round trip.
    @inline(never)
    private func begin(
        _ continuation: UnsafeContinuation<[Result<PostgresRows, PostgresError>], any Error>, query: String?,
        expected: Int, syncAfter: Int?, rowsKept: Int,
        _ start: (OpaquePointer, inout Handle) -> (sent: [PreparedStatements.Sent], pipelined: Bool)?
    ) {
        var readAhead = false
        let failure: PostgresError? = handle.withLock { handle in
            guard let connection = handle.connection else {
                return PostgresError(.connectionLost, message: "the connection is closed", query: query)
            }
            guard handle.pending == nil else {
                return PostgresError(.server, message: "a statement is already running on this connection")
            }
            if handle.mustDiscard {
                return PostgresError(
                    .readOnlyServer, message: "the connection's server is no longer the primary", query: query)
            }
            let started = start(connection, &handle)
            guard let started, flush(connection, readAhead: &readAhead) else {
                let error = connectionError(connection, query: query)
                if started?.pipelined ?? true {
                    // Half a pipeline may have been sent (or prepared): never reuse the connection.
                    unwatch(connection)
                    PQfinish(connection)
                    handle.connection = nil
                }
                return error
            }
            let deadline = queryTimeout.map { PollDeadline.after($0) }
            var pending = Pending(
                query: query, continuation: continuation, expected: expected, pipelined: started.pipelined,
                firstSegment: syncAfter ?? expected, syncsLeft: syncAfter == nil ? 1 : 2, rowsKept: rowsKept,
                deadline: deadline, sent: started.sent)
            pending.results.reserveCapacity(expected)
            // Consumed, not copied: the optimiser copied it (a retain of each of its references,
            // then a release of each with the local) although nothing reads it afterwards.
            handle.pending = consume pending
            // Results may already sit in libpq's buffer, where no epoll wake-up would report
            // them; a socket libpq closed is read at once too, and reports the loss.
            if !readAhead { readAhead = !watchWhileLocked(connection, deadline: deadline) }
            return nil
        }
        if let failure {
            continuation.resume(throwing: failure)
        } else if readAhead {
            socketReadable()
        }
    }

    /// Called by the poller when the socket is readable: reads what arrived and, once the
    /// statements' results are complete, resumes their caller; else waits for more.
    func socketReadable() {
        enum Next {
            case done(
                UnsafeContinuation<[Result<PostgresRows, PostgresError>], any Error>,
                Result<[Result<PostgresRows, PostgresError>], PostgresError>)
            case nothing
        }
        let next: Next = handle.withLock { handle in
            // Moved out while it is read (`take()`: no copy of its references to retain and release),
            // put back below when more is to come: its arrays stay uniquely referenced, so
            // appending a result does not copy them.
            guard let connection = handle.connection, var pending = handle.pending.take() else { return .nothing }
            guard PQconsumeInput(connection) != 0 else {
                return .done(pending.continuation, .failure(connectionError(connection, query: pending.query)))
            }
            while PQisBusy(connection) == 0 {
                let done = pending.read(from: connection)
                if !pending.forget.isEmpty {
                    for number in pending.forget { handle.statements.forget(number) }
                    pending.forget = []
                }
                if done {
                    if pending.discards { handle.mustDiscard = true }
                    swap(&handle.spareSent, &pending.sent)
                    return .done(pending.continuation, .success(pending.results))
                }
            }
            guard watchWhileLocked(connection, deadline: pending.deadline) else {
                return .done(pending.continuation, .failure(connectionError(connection, query: pending.query)))
            }
            handle.pending = pending
            return .nothing
        }
        switch next {
        case .done(let continuation, let outcome): continuation.resume(with: outcome)
        case .nothing: break
        }
    }

    /// Called by the poller when the statements in flight passed their deadline: closes the
    /// connection (a frozen server would hold it forever) and fails their caller. A statement
    /// that finished meanwhile is left alone; a later one is watched again.
    func deadlinePassed() {
        enum Next {
            case fail(UnsafeContinuation<[Result<PostgresRows, PostgresError>], any Error>, PostgresError)
            case lost(UnsafeContinuation<[Result<PostgresRows, PostgresError>], any Error>, PostgresError)
            case nothing
        }
        let next: Next = handle.withLock { handle in
            guard let connection = handle.connection, let pending = handle.pending else { return .nothing }
            if let deadline = pending.deadline, deadline > .now {
                if watchWhileLocked(connection, deadline: deadline) { return .nothing }
                handle.pending = nil
                return .lost(pending.continuation, connectionError(connection, query: pending.query))
            }
            HostList.quarantine(endpoint: endpoint, until: .now + hostQuarantine)
            unwatch(connection)
            PQfinish(connection)
            handle.connection = nil
            handle.pending = nil
            return .fail(
                pending.continuation,
                PostgresError(
                    .connectionLost,
                    message: "no answer from Postgres within queryTimeout=\(queryTimeout ?? .zero); "
                        + "the connection was closed (server frozen or unreachable)",
                    query: pending.query))
        }
        switch next {
        case .fail(let continuation, let error):
            logger.warning("postgres statement ran past its deadline", metadata: ["error": "\(error)"])
            continuation.resume(throwing: error)
        case .lost(let continuation, let error): continuation.resume(throwing: error)
        case .nothing: break
        }
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
