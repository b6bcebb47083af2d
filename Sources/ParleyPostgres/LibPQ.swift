import CLibPQ
import Glibc
import Logging
import Synchronization

// The thin layer of blocking libpq calls: every other file speaks Swift types and
// `PostgresError`. Callers hold the connection's mutex, on the connection's queue.

/// Opens a connection without ever blocking past `timeout`: `PQconnectStartParams`, then
/// `PQconnectPoll` driven by `poll(2)` on the socket until the handshake ends or the deadline
/// passes. libpq's own `connect_timeout` only bounds its blocking connect and counts whole
/// seconds (at least 2), too coarse for answering 503 within a second (issue 15).
///
/// A pooler that refuses the `options` startup parameter (PgBouncer does unless told to ignore
/// it) gets a second attempt without it, within the same deadline: the session defaults it
/// carries are conveniences (Parley's SQL names its time zones; hex `bytea` and ISO dates are
/// the server defaults), while refusing to connect through PgBouncer would not be.
///
/// With a multi-host URL each host gets `timeout` of its own and the hosts are tried one at a
/// time (``HostList``): a host that ran out of time is tried last for `quarantine`, with a
/// quarter of `timeout`.
func openConnection(_ parameters: [(String, String)], timeout: Duration, quarantine: Duration = .seconds(5))
    throws -> OpaquePointer
{
    let hosts = HostList(parameters: parameters)
    guard hosts.candidates.count > 1 else { return try openConnectionToHost(parameters, timeout: timeout) }
    var failures: [String] = []
    let (order, quarantined) = hosts.order(at: .now)
    for index in order {
        let started = ContinuousClock.now
        // A host in quarantine stopped answering moments ago: it gets a quarter of the time, so
        // a frozen primary costs each new connection little while the others are standbys.
        let hostTimeout = quarantined.contains(index) ? timeout / 4 : timeout
        do {
            let connection = try openConnectionToHost(hosts.candidates[index], timeout: hostTimeout)
            hosts.succeeded(index)
            return connection
        } catch let error as PostgresError {
            let now = ContinuousClock.now
            if now - started >= hostTimeout { hosts.timedOut(index, until: now + quarantine) }
            failures.append("host \(index + 1): \(error.message)")
        }
    }
    throw PostgresError(
        .connectionFailed,
        message: "no host of the URL took a connection (\(failures.joined(separator: "; ")))")
}

/// One host's connection (see ``openConnection(_:timeout:quarantine:)``).
private func openConnectionToHost(_ parameters: [(String, String)], timeout: Duration) throws -> OpaquePointer {
    let deadline = ContinuousClock.now + timeout
    do {
        return try openConnection(parameters, deadline: deadline, timeout: timeout)
    } catch let error as PostgresError where error.message.contains("unsupported startup parameter: options") {
        if !optionsRefusalLogged.exchange(true, ordering: .relaxed) {
            noticeLogger.info("postgres pooler refused the options startup parameter; connecting without it")
        }
        return try openConnection(parameters.filter { $0.0 != "options" }, deadline: deadline, timeout: timeout)
    }
}

private func openConnection(_ parameters: [(String, String)], deadline: ContinuousClock.Instant, timeout: Duration)
    throws -> OpaquePointer
{
    let keys = parameters.map { strdup($0.0) } + [nil]
    let values = parameters.map { strdup($0.1) } + [nil]
    defer {
        keys.forEach { free($0) }
        values.forEach { free($0) }
    }
    let keyPointers: [UnsafePointer<CChar>?] = keys.map { $0.map { UnsafePointer($0) } }
    let valuePointers: [UnsafePointer<CChar>?] = values.map { $0.map { UnsafePointer($0) } }
    let connection = keyPointers.withUnsafeBufferPointer { keyPointers in
        valuePointers.withUnsafeBufferPointer { valuePointers in
            PQconnectStartParams(keyPointers.baseAddress, valuePointers.baseAddress, 1)
        }
    }
    guard let connection else {
        throw PostgresError(.connectionFailed, message: "libpq could not allocate a connection")
    }
    do {
        try completeHandshake(connection, deadline: deadline, timeout: timeout)
    } catch {
        PQfinish(connection)
        throw error
    }
    // libpq prints server notices (e.g. the FATAL sent before a terminated backend's EOF) to
    // stderr by default; route them to the log instead.
    PQsetNoticeProcessor(
        connection,
        { _, message in
            guard let message else { return }
            noticeLogger.debug("postgres notice", metadata: ["message": "\(String(cString: message).trimmingSpace())"])
        }, nil)
    return connection
}

/// Drives a started connection to `CONNECTION_OK`, waiting on its socket as libpq asks
/// (the socket may change while libpq tries several addresses), never past `deadline`.
private func completeHandshake(_ connection: OpaquePointer, deadline: ContinuousClock.Instant, timeout: Duration)
    throws
{
    guard PQstatus(connection) != CONNECTION_BAD else {
        throw PostgresError(.connectionFailed, message: errorMessage(connection))
    }
    var status = PGRES_POLLING_WRITING
    while true {
        switch status {
        case PGRES_POLLING_OK:
            return
        case PGRES_POLLING_READING, PGRES_POLLING_WRITING:
            let remaining = deadline - .now
            let milliseconds = remaining.wholeMilliseconds
            let events = status == PGRES_POLLING_READING ? POLLIN : POLLOUT
            var descriptor = pollfd(fd: PQsocket(connection), events: Int16(events), revents: 0)
            let ready = milliseconds > 0 ? poll(&descriptor, 1, Int32(clamping: milliseconds)) : 0
            if ready == 0 {
                throw PostgresError(
                    .connectionFailed,
                    message:
                        "no connection to Postgres within connectTimeout=\(timeout) (host unreachable or overloaded)")
            }
            if ready < 0, errno != EINTR {
                throw PostgresError(.connectionFailed, message: "poll failed while connecting: errno \(errno)")
            }
        default:
            throw PostgresError(.connectionFailed, message: errorMessage(connection))
        }
        status = PQconnectPoll(connection)
    }
}

/// Whether the pooler's refusal of `options` was logged already (once per process is enough).
private let optionsRefusalLogged = Atomic<Bool>(false)

/// Where server notices go (a C callback cannot capture a connection's logger).
let noticeLogger = Logger(label: "parley.postgres.notice")

/// Sends one parameterised statement without waiting for its result (`PQsendQueryParams`).
func sendStatement(_ query: PostgresQuery, on connection: OpaquePointer) -> Bool {
    withParameters(of: query) { count, types, values, lengths, formats in
        PQsendQueryParams(connection, query.sql, count, types, values, lengths, formats, 0) == 1
    }
}

/// Prepares `query` as the statement `name` (`PQsendPrepare`), with its parameters' types.
func sendPrepare(_ query: PostgresQuery, named name: String, on connection: OpaquePointer) -> Bool {
    let types = query.binds.map(\.typeOID)
    return types.withUnsafeBufferPointer { types in
        PQsendPrepare(connection, name, query.sql, Int32(types.count), types.baseAddress) == 1
    }
}

/// Runs the prepared statement `name` with `query`'s parameters (`PQsendQueryPrepared`).
/// The name goes through `withCString`: passed as a `String` argument, a small string (every
/// `parley_N`) was copied into a new heap array on every call (~400 instructions a statement).
func sendPrepared(_ query: PostgresQuery, named name: String, on connection: OpaquePointer) -> Bool {
    name.withCString { name in
        withParameters(of: query) { count, _, values, lengths, formats in
            PQsendQueryPrepared(connection, name, count, values, lengths, formats, 0) == 1
        }
    }
}

/// The statement's rows, or the error its result describes. The rows take `result` over (it is
/// cleared with them); when this throws, the caller still owns it.
func rowsOrError(_ result: OpaquePointer, connection: OpaquePointer, query: String?) throws -> PostgresRows {
    try checkResult(result, connection: connection, query: query)
    return PostgresRows(result: PostgresResult(owning: result))
}

/// Throws the error `result` describes, if it is one.
func checkResult(_ result: OpaquePointer, connection: OpaquePointer, query: String?) throws {
    let status = PQresultStatus(result)
    guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK || status == PGRES_EMPTY_QUERY else {
        throw resultError(result, connection: connection, query: query)
    }
}

/// Calls `body` with libpq's parameter arrays for `query`: binary format, explicit type OIDs.
/// The arrays and the values' bytes live in temporary allocations (on the stack when small), not
/// in five arrays per statement: a batch sends several statements per answer, some with a
/// couple of dozen parameters. A statement without parameters passes none.
private func withParameters<T>(
    of query: PostgresQuery,
    _ body: (
        Int32, UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
        UnsafePointer<Int32>?
    ) -> T
) -> T {
    let binds = query.binds
    let count = binds.count
    guard count > 0 else { return body(0, nil, nil, nil, nil) }
    var total = 0
    for bind in binds { total += bind.value?.count ?? 0 }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, total)) { storage in
        withUnsafeTemporaryAllocation(of: Oid.self, capacity: count) { types in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * count) { numbers in
                withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: count) { values in
                    let base = UnsafeMutableRawPointer(storage.baseAddress!)
                    var offset = 0
                    for (index, bind) in binds.enumerated() {
                        types[index] = bind.typeOID
                        numbers[count + index] = 1  // binary format
                        guard let bytes = bind.value else {
                            numbers[index] = 0
                            values[index] = nil
                            continue
                        }
                        numbers[index] = Int32(bytes.count)
                        bytes.withUnsafeBytes { source in
                            if let address = source.baseAddress {
                                (base + offset).copyMemory(from: address, byteCount: source.count)
                            }
                        }
                        values[index] = UnsafePointer((base + offset).assumingMemoryBound(to: CChar.self))
                        offset += bytes.count
                    }
                    return body(
                        Int32(count), UnsafePointer(types.baseAddress), UnsafePointer(values.baseAddress),
                        UnsafePointer(numbers.baseAddress), UnsafePointer(numbers.baseAddress! + count))
                }
            }
        }
    }
}

/// `PQcmdTuples` as a number (0 when it is empty: not a row count command), read from its digits
/// without a `String` in between.
func affectedRowsOf(_ result: OpaquePointer) -> Int {
    guard var digit = PQcmdTuples(result) else { return 0 }
    var count = 0
    while digit.pointee != 0 {
        let value = Int(digit.pointee) - Int(UInt8(ascii: "0"))
        guard (0...9).contains(value) else { return 0 }
        let (times, overflowTimes) = count.multipliedReportingOverflow(by: 10)
        let (sum, overflowSum) = times.addingReportingOverflow(value)
        guard !overflowTimes, !overflowSum else { return 0 }
        count = sum
        digit += 1
    }
    return count
}

/// The error a failed result describes, typed by SQLSTATE (or as a lost connection).
func resultError(_ result: OpaquePointer, connection: OpaquePointer, query: String?) -> PostgresError {
    func field(_ code: Character) -> String? {
        guard let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
        return String(cString: value)
    }
    let sqlState = field("C")
    var kind = sqlState.map(PostgresError.Kind.forSQLState) ?? .server
    if PQstatus(connection) != CONNECTION_OK { kind = .connectionLost }
    let message = field("M") ?? String(cString: PQresultErrorMessage(result)).trimmingSpace()
    return PostgresError(
        kind, message: message.isEmpty ? errorMessage(connection) : message, sqlState: sqlState,
        detail: field("D"), constraint: field("n"), query: query)
}

/// The error for a statement that produced no result at all: the connection is gone.
func connectionError(_ connection: OpaquePointer, query: String?) -> PostgresError {
    PostgresError(.connectionLost, message: errorMessage(connection), query: query)
}

/// libpq's last error message for `connection`, trimmed.
func errorMessage(_ connection: OpaquePointer) -> String {
    guard let message = PQerrorMessage(connection) else { return "unknown libpq error" }
    let text = String(cString: message).trimmingSpace()
    return text.isEmpty ? "unknown libpq error" : text
}

extension String {
    /// Without leading and trailing ASCII whitespace (libpq messages end in a newline).
    func trimmingSpace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !" \n\r\t".unicodeScalars.contains($0) }) else { return "" }
        let end = scalars.lastIndex(where: { !" \n\r\t".unicodeScalars.contains($0) })!
        return String(scalars[start...end])
    }
}

/// Runs `sql` (simple query protocol) on a connection in blocking mode without waiting for
/// its answer past `deadline`: the `LISTEN` connection's statements, which a frozen server
/// would otherwise hold forever (its kernel acknowledges the bytes; nothing answers them).
/// Throws ``PostgresError/Kind-swift.struct/connectionLost`` at the deadline; the caller then
/// closes the connection, which is left mid-statement.
func executeStatement(_ sql: String, on connection: OpaquePointer, deadline: ContinuousClock.Instant) throws {
    guard PQsendQuery(connection, sql) == 1 else { throw connectionError(connection, query: sql) }
    var failure: PostgresError?
    while true {
        while PQisBusy(connection) != 0 {
            let milliseconds = (deadline - .now).wholeMilliseconds
            var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
            let ready = milliseconds > 0 ? poll(&descriptor, 1, Int32(clamping: milliseconds)) : 0
            if ready == 0 {
                throw PostgresError(
                    .connectionLost, message: "no answer from Postgres in time (frozen or unreachable)", query: sql)
            }
            if ready < 0, errno != EINTR {
                throw PostgresError(.connectionLost, message: "poll failed: errno \(errno)", query: sql)
            }
            if PQconsumeInput(connection) == 0 { throw connectionError(connection, query: sql) }
        }
        guard let result = PQgetResult(connection) else { break }
        defer { PQclear(result) }
        do {
            try checkResult(result, connection: connection, query: sql)
        } catch let error as PostgresError {
            failure = failure ?? error
        }
    }
    if let failure { throw failure }
}
