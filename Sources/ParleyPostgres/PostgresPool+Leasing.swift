import Synchronization

/// The pool's decisions, with the shell's concrete types: waiters are continuations, deadline
/// timers are tasks, time is the continuous clock's.
typealias PoolDecisions = PoolStateMachine<
    PostgresConnection, CheckedContinuation<PoolLease<PostgresConnection>, any Error>, Task<Void, Never>,
    ContinuousClock.Instant
>

/// The I/O half of leasing: ``PoolStateMachine`` decides, these functions read the clock, open
/// and check connections, arm deadline timers and resume callers with what it decided.
extension PostgresPool {
    /// What a caller gets without waiting (``leaseNow()``).
    enum Immediate {
        /// An idle connection that passed its check: the common case.
        case ready(PostgresConnection)
        /// A lease that needs more (a ping, a connection to open, a replacement for a broken one).
        case lease(PoolLease<PostgresConnection>)
        /// Nothing free: wait in line.
        case none
    }

    /// The common case of ``acquire(cancellable:)`` as a synchronous call: an idle connection
    /// whose check needs no ping. Callers try it before the async acquire, whose frame and
    /// temporaries (its locks' closures, the lease) were allocated from the task on every batch
    /// (~7 allocations) even when it never suspended.
    func leaseNow() throws -> Immediate {
        let now = clock.now
        guard let lease = try state.withLock({ machine throws(PostgresError) in try machine.lease(at: now) }) else {
            return .none
        }
        if case .connection(let connection, let ping) = lease, connection.healthVerdict(ping: ping) == true {
            return .ready(connection)
        }
        return .lease(lease)
    }

    /// A healthy connection: an idle one that passes its check, or a new one.
    func acquire(cancellable: Bool = true) async throws -> PostgresConnection {
        let immediate = try leaseNow()
        if case .ready(let connection) = immediate { return connection }
        return try await acquire(cancellable: cancellable, after: immediate)
    }

    /// ``acquire(cancellable:)`` once ``leaseNow()`` said `immediate`: checks its lease or waits
    /// for one, until a healthy connection is found or opened.
    func acquire(cancellable: Bool, after immediate: Immediate) async throws -> PostgresConnection {
        var first: PoolLease<PostgresConnection>? = nil
        switch immediate {
        case .ready(let connection): return connection
        case .lease(let lease): first = lease
        case .none: break
        }
        while true {
            let lease: PoolLease<PostgresConnection>
            let now = clock.now
            if let taken = first {
                lease = taken
                first = nil
            } else if let immediate = try state.withLock({ machine throws(PostgresError) in try machine.lease(at: now) }
            ) {
                lease = immediate  // no continuation, no extra hop
            } else {
                lease = try await cancellable ? reserve() : withoutCancellation { try await self.reserve() }
            }
            switch lease {
            case .connection(let connection, let ping):
                // Decided without an async call unless a ping must tell (``checkHealth(ping:)``).
                let healthy: Bool
                if let verdict = connection.healthVerdict(ping: ping) {
                    healthy = verdict
                } else {
                    healthy = await connection.answersPing()
                }
                if healthy { return connection }
                logger.info("postgres connection replaced", metadata: ["reason": "failed health check"])
                release(connection, reusable: false)
            case .slot:
                do {
                    let connection = try await PostgresConnection.connect(configuration: configuration, logger: logger)
                    state.withLock { $0.connected() }
                    return connection
                } catch {
                    let reason = (error as? PostgresError)?.message ?? "\(error)"
                    let now = clock.now
                    perform(state.withLock { $0.connectFailed(reason, at: now) })
                    throw error
                }
            }
        }
    }

    /// Returns a connection: to the next waiter, to the idle list, or closed when broken.
    func release(_ connection: PostgresConnection, reusable: Bool? = nil) {
        let reusable = reusable ?? connection.isOpen
        let now = clock.now
        perform(state.withLock { $0.release(connection, reusable: reusable, at: now) })
    }

    /// Does what the state machine decided, outside its lock: resumes callers, closes connections.
    func perform(_ actions: [PoolDecisions.Action]) {
        for action in actions {
            switch action {
            case .lease(let lease, let waiter):
                waiter.timer?.cancel()
                waiter.request.resume(returning: lease)
            case .fail(let waiter, let error):
                waiter.timer?.cancel()
                waiter.request.resume(throwing: error)
            case .cancel(let waiter):
                waiter.timer?.cancel()
                waiter.request.resume(throwing: CancellationError())
            case .close(let connection):
                connection.close()
            case .reportBreakerOpened(let failures, let reason):
                logger.warning(
                    "postgres circuit breaker opened", metadata: ["failures": "\(failures)", "reason": "\(reason)"])
            }
        }
    }

    /// Runs `body` in a task of its own, so the caller's cancellation does not reach it.
    private func withoutCancellation<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Task { try await body() }.value
    }

    /// An idle connection or a slot now, or after waiting in line (bounded by the acquire timeout).
    private func reserve() async throws -> PoolLease<PostgresConnection> {
        let id = state.withLock { $0.makeWaiterID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let now = clock.now
                switch state.withLock({ $0.enqueue(id, continuation, at: now) }) {
                case .leased(let lease):
                    continuation.resume(returning: lease)
                case .refused(let error):
                    continuation.resume(throwing: error)
                case .waiting(let deadline):
                    // Cancelled before it queued: the cancellation handler found nobody to remove.
                    if Task.isCancelled { return perform(state.withLock { $0.cancel(id) }) }
                    let timer = Task { [weak self] in
                        try? await Task.sleep(until: deadline, clock: .continuous)
                        guard !Task.isCancelled, let self else { return }
                        let now = self.clock.now
                        self.perform(self.state.withLock { $0.deadlinePassed(at: now) })
                    }
                    if !state.withLock({ $0.attach(timer, to: id) }) { timer.cancel() }
                }
            }
        } onCancel: {
            perform(state.withLock { $0.cancel(id) })
        }
    }
}
