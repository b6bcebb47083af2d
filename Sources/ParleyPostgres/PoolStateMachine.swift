/// The pool's decisions as a pure value: who gets a connection, who waits in line and until
/// when, who is refused, which connection is pinged, replaced or closed.
///
/// No locks, no continuations, no tasks and no clock: time comes in as an argument (generic
/// over the instant type, it cannot read one), and each event returns the ``Action``s the
/// pool must perform. ``PostgresPool`` is the I/O shell around it: it holds it under a mutex,
/// reads its own clock, opens and pings connections, arms timers and resumes callers. The
/// model is postgres-nio's `PoolStateMachine` (STYLE.md), so every rule is unit-tested with a
/// fake clock and fake connections: no sleep, no socket.
///
/// `Request` is what the shell resumes a waiter with and `Timer` what cancels its deadline
/// timer: both opaque here.
struct PoolStateMachine<Connection, Request, Timer, Instant: InstantProtocol> where Instant.Duration == Duration {
    /// A caller in line for a connection.
    struct Waiter {
        let id: UInt64
        let request: Request
        /// When it stops waiting and fails with ``PostgresError/Kind-swift.struct/poolTimeout``.
        let deadline: Instant
        /// The shell's timer for `deadline`, cancelled when the waiter leaves the line.
        var timer: Timer?
    }

    /// A connection nobody holds, and since when.
    struct IdleConnection {
        let connection: Connection
        let since: Instant
    }

    /// What the pool must do after an event.
    enum Action {
        /// Resume `waiter` with `lease`.
        case lease(PoolLease<Connection>, to: Waiter)
        /// Resume `waiter` with `error`.
        case fail(Waiter, PostgresError)
        /// Resume `waiter`, whose task was cancelled, with `CancellationError`.
        case cancel(Waiter)
        /// Close `connection` (it broke, or the pool shut down).
        case close(Connection)
        /// Log that the circuit breaker opened after `failures` attempts, the last failing with `reason`.
        case reportBreakerOpened(failures: Int, reason: String)
    }

    /// Where a caller stands after ``enqueue(_:_:at:)``.
    enum Enqueued {
        case leased(PoolLease<Connection>)
        case refused(PostgresError)
        /// In line until `deadline`; arm a timer and ``attach(_:to:)`` it.
        case waiting(until: Instant)
    }

    let maximumConnections: Int
    let acquireTimeout: Duration
    let healthCheckAfterIdle: Duration
    private(set) var breaker: CircuitBreaker<Instant>
    /// Connections counted against ``maximumConnections``: held, idle, or being opened.
    private(set) var open = 0
    /// Most recently released last: leases take from the end, so rarely used ones age and get pinged.
    private(set) var idle: [IdleConnection] = []
    /// First come, first served.
    private(set) var waiters: [Waiter] = []
    private(set) var isShutDown = false
    private var lastWaiterID: UInt64 = 0

    init(configuration: PostgresConfiguration) {
        maximumConnections = configuration.maximumConnections
        acquireTimeout = configuration.acquireTimeout
        healthCheckAfterIdle = configuration.healthCheckAfterIdle
        breaker = CircuitBreaker(configuration: configuration)
    }

    /// A fresh identity for a caller about to wait (known before it waits, for its cancellation).
    mutating func makeWaiterID() -> UInt64 {
        lastWaiterID += 1
        return lastWaiterID
    }

    /// An idle connection or a slot at `now` without waiting; `nil` when the caller must wait
    /// (every slot taken, or others are already in line: they come first). Throws when the pool
    /// is shut down or the breaker refuses attempts.
    mutating func lease(at now: Instant) throws(PostgresError) -> PoolLease<Connection>? {
        guard !isShutDown else { throw Self.closedError }
        guard waiters.isEmpty else { return nil }
        if let entry = idle.popLast() {
            return .connection(entry.connection, ping: entry.since.duration(to: now) > healthCheckAfterIdle)
        }
        return try takeSlot(at: now)
    }

    /// ``lease(at:)``, or else puts `request` in line with a deadline of ``acquireTimeout`` from `now`.
    mutating func enqueue(_ id: UInt64, _ request: Request, at now: Instant) -> Enqueued {
        do throws(PostgresError) {
            if let lease = try lease(at: now) { return .leased(lease) }
        } catch {
            return .refused(error)
        }
        let deadline = now.advanced(by: acquireTimeout)
        waiters.append(Waiter(id: id, request: request, deadline: deadline))
        return .waiting(until: deadline)
    }

    /// Keeps the timer for waiter `id`'s deadline; false when it already left the line (the
    /// shell then cancels `timer` itself).
    mutating func attach(_ timer: Timer, to id: UInt64) -> Bool {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return false }
        waiters[index].timer = timer
        return true
    }

    /// A connection opened in a leased slot: the database is reachable.
    mutating func connected() {
        breaker.recordSuccess()
    }

    /// Opening a connection in a leased slot failed with `reason` at `now`: the slot is free
    /// again for the next waiter, unless this failure opened the breaker, which refuses every
    /// waiter now rather than at its deadline.
    mutating func connectFailed(_ reason: String, at now: Instant) -> [Action] {
        open -= 1
        var actions = expireWaiters(at: now)
        guard breaker.recordFailure(reason, at: now) else { return actions + grantFreedSlot(at: now) }
        actions.append(.reportBreakerOpened(failures: breaker.consecutiveFailures, reason: reason))
        let refusal = breaker.refusal(retryIn: breaker.backoff)
        actions += waiters.map { .fail($0, refusal) }
        waiters = []
        return actions
    }

    /// A holder gives `connection` back at `now`: to the first waiter whose deadline has not
    /// passed, else to the idle list. One that is not `reusable` (broken, failed its check) is
    /// closed and its slot goes to the first waiter, who opens a replacement.
    mutating func release(_ connection: Connection, reusable: Bool, at now: Instant) -> [Action] {
        guard !isShutDown else {
            open -= 1
            return [.close(connection)]
        }
        var actions = expireWaiters(at: now)
        guard reusable else {
            open -= 1
            return actions + [.close(connection)] + grantFreedSlot(at: now)
        }
        if waiters.isEmpty {
            idle.append(IdleConnection(connection: connection, since: now))
        } else {
            actions.append(.lease(.connection(connection, ping: false), to: waiters.removeFirst()))
        }
        return actions
    }

    /// A deadline timer fired at `now`: every waiter whose deadline has passed fails with
    /// ``PostgresError/Kind-swift.struct/poolTimeout``.
    mutating func deadlinePassed(at now: Instant) -> [Action] {
        expireWaiters(at: now)
    }

    /// The task of waiter `id` was cancelled: it leaves the line (if it is still in it).
    mutating func cancel(_ id: UInt64) -> [Action] {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return [] }
        return [.cancel(waiters.remove(at: index))]
    }

    /// Refuses every later lease, closes the idle connections and fails every waiter with
    /// ``PostgresError/Kind-swift.struct/poolClosed``; held connections close when released.
    mutating func shutdown() -> [Action] {
        isShutDown = true
        open -= idle.count
        let actions = idle.map { Action.close($0.connection) } + waiters.map { .fail($0, Self.closedError) }
        idle = []
        waiters = []
        return actions
    }
}

extension PoolStateMachine {
    static var closedError: PostgresError { PostgresError(.poolClosed, message: "the pool was shut down") }

    /// A slot, when one is free and the breaker allows an attempt at `now` (or makes this one
    /// its probe); `nil` when every slot is taken; throws the breaker's refusal.
    private mutating func takeSlot(at now: Instant) throws(PostgresError) -> PoolLease<Connection>? {
        guard open < maximumConnections else { return nil }
        if case .refuse(let retryIn) = breaker.permission(at: now) { throw breaker.refusal(retryIn: retryIn) }
        open += 1
        return .slot
    }

    /// Lets the first waiter open a connection in a freed slot. While the breaker refuses
    /// attempts every waiter is refused now, as a caller arriving now would be: none stays in
    /// line beside a free slot, so the line never holds back a fail-fast answer.
    private mutating func grantFreedSlot(at now: Instant) -> [Action] {
        guard !waiters.isEmpty else { return [] }
        do throws(PostgresError) {
            guard let slot = try takeSlot(at: now) else { return [] }
            return [.lease(slot, to: waiters.removeFirst())]
        } catch {
            defer { waiters = [] }
            return waiters.map { .fail($0, error) }
        }
    }

    /// Fails every waiter whose deadline is not after `now`, so a connection released late never
    /// goes to a caller who has already been told it timed out.
    private mutating func expireWaiters(at now: Instant) -> [Action] {
        guard waiters.contains(where: { $0.deadline <= now }) else { return [] }
        let error = timeoutError
        var expired: [Action] = []
        waiters.removeAll { waiter in
            guard waiter.deadline <= now else { return false }
            expired.append(.fail(waiter, error))
            return true
        }
        return expired
    }

    /// What a caller who waited too long is told: the limit, how busy the pool is, what to change.
    private var timeoutError: PostgresError {
        PostgresError(
            .poolTimeout,
            message: "no Postgres connection became free within \(acquireTimeout) "
                + "(all \(open) of maximumConnections=\(maximumConnections) in use, \(waiters.count) waiting); "
                + "raise maximumConnections or hold connections for less time")
    }
}
