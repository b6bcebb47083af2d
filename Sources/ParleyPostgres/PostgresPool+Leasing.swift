import Synchronization

/// The pool's mutable state, guarded by its mutex.
struct PoolState: ~Copyable {
    var idle: [PostgresConnection] = []
    var open = 0
    var waiters: [Waiter] = []
    var nextWaiterID: UInt64 = 0
    var closed = false
    var breaker: CircuitBreaker

    /// A slot to open a connection in, when one is free and the breaker allows an attempt;
    /// `nil` when every slot is taken; throws the breaker's refusal when it is open.
    mutating func takeSlot(maximum: Int) throws(PostgresError) -> Lease? {
        guard open < maximum else { return nil }
        if case .refuse(let retryIn) = breaker.permission(at: .now) { throw breaker.refusal(retryIn: retryIn) }
        open += 1
        return .slot
    }
}

/// A caller waiting for a connection.
struct Waiter {
    let id: UInt64
    let continuation: CheckedContinuation<Lease, any Error>
    var timer: Task<Void, Never>?
}

/// What a caller is granted: an idle connection, or the right to open a new one.
enum Lease: Sendable {
    case connection(PostgresConnection)
    case slot
}

extension PostgresPool {
    /// A healthy connection: an idle one that passes its check, or a new one.
    func acquire(cancellable: Bool = true) async throws -> PostgresConnection {
        while true {
            let lease: Lease
            if let immediate = try takeWithoutWaiting() {
                lease = immediate  // the common case: no continuation, no extra hop
            } else {
                lease = try await cancellable ? reserve() : withoutCancellation { try await self.reserve() }
            }
            switch lease {
            case .connection(let connection):
                if await connection.checkHealth(pingAfterIdle: configuration.healthCheckAfterIdle) {
                    return connection
                }
                logger.info("postgres connection replaced", metadata: ["reason": "failed health check"])
                connection.close()
                release(connection)
            case .slot:
                do {
                    let connection = try await PostgresConnection.connect(configuration: configuration, logger: logger)
                    state.withLock { $0.breaker.recordSuccess() }
                    return connection
                } catch {
                    giveBackSlot(failure: (error as? PostgresError)?.message ?? "\(error)")
                    throw error
                }
            }
        }
    }

    /// An idle connection or a free slot when one is available right now.
    private func takeWithoutWaiting() throws -> Lease? {
        try state.withLock { state in
            if state.closed { throw PostgresError(.poolClosed, message: "the pool was shut down") }
            if let connection = state.idle.popLast() { return .connection(connection) }
            return try state.takeSlot(maximum: configuration.maximumConnections)
        }
    }

    /// Returns a connection: to the next waiter, to the idle list, or closed when broken.
    func release(_ connection: PostgresConnection) {
        let usable = connection.isOpen
        let handoff: (Waiter, Result<Lease, PostgresError>)? = state.withLock { state in
            if state.closed || !usable {
                state.open -= 1
                return state.closed ? nil : grantSlot(&state)
            }
            if !state.waiters.isEmpty { return (state.waiters.removeFirst(), .success(.connection(connection))) }
            state.idle.append(connection)
            return nil
        }
        if !usable || handoff == nil && state.withLock({ $0.closed }) { connection.close() }
        if let (waiter, lease) = handoff {
            waiter.timer?.cancel()
            waiter.continuation.resume(with: lease)
        }
    }

    /// Gives back the right to open a connection after opening one failed with `failure`.
    /// When that failure opens the breaker, every waiter is refused now rather than at its deadline.
    func giveBackSlot(failure: String) {
        let handoffs: [(Waiter, Result<Lease, PostgresError>)] = state.withLock { state in
            state.open -= 1
            guard state.breaker.recordFailure(failure, at: .now) else { return grantSlot(&state).map { [$0] } ?? [] }
            logger.warning(
                "postgres circuit breaker opened",
                metadata: ["failures": "\(state.breaker.consecutiveFailures)", "reason": "\(failure)"])
            defer { state.waiters = [] }
            let refusal = state.breaker.refusal(retryIn: state.breaker.backoff)
            return state.waiters.map { ($0, .failure(refusal)) }
        }
        for (waiter, lease) in handoffs {
            waiter.timer?.cancel()
            waiter.continuation.resume(with: lease)
        }
    }

    /// Lets the first waiter open a connection in a freed slot (or refuses it while the breaker is open).
    private func grantSlot(_ state: inout PoolState) -> (Waiter, Result<Lease, PostgresError>)? {
        guard !state.waiters.isEmpty else { return nil }
        do throws(PostgresError) {
            guard let slot = try state.takeSlot(maximum: configuration.maximumConnections) else { return nil }
            return (state.waiters.removeFirst(), .success(slot))
        } catch {
            return (state.waiters.removeFirst(), .failure(error))
        }
    }

    /// Runs `body` in a task of its own, so the caller's cancellation does not reach it.
    private func withoutCancellation<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Task { try await body() }.value
    }

    /// An idle connection or a slot now, or after waiting in line (bounded by the acquire timeout).
    private func reserve() async throws -> Lease {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Lease, any Error>) in
                let immediate: Result<Lease, PostgresError>? = state.withLock { state in
                    if state.closed { return .failure(PostgresError(.poolClosed, message: "the pool was shut down")) }
                    if let connection = state.idle.popLast() { return .success(.connection(connection)) }
                    do throws(PostgresError) {
                        if let slot = try state.takeSlot(maximum: configuration.maximumConnections) {
                            return .success(slot)
                        }
                    } catch {
                        return .failure(error)
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let immediate {
                    continuation.resume(with: immediate)
                    return
                }
                let timeout = configuration.acquireTimeout
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled else { return }
                    self?.abandon(id, because: self?.timeoutError())
                }
                let stillWaiting = state.withLock { state in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return false }
                    state.waiters[index].timer = timer
                    return true
                }
                if !stillWaiting { timer.cancel() }
            }
        } onCancel: {
            abandon(id, because: nil)
        }
    }

    /// Removes a waiter that timed out or was cancelled and fails it.
    private func abandon(_ id: UInt64, because error: PostgresError?) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        guard let waiter else { return }
        waiter.timer?.cancel()
        waiter.continuation.resume(throwing: error ?? CancellationError())
    }

    private func timeoutError() -> PostgresError {
        let (open, waiting) = state.withLock { ($0.open, $0.waiters.count) }
        return PostgresError(
            .poolTimeout,
            message: "no Postgres connection became free within \(configuration.acquireTimeout) "
                + "(all \(open) of maximumConnections=\(configuration.maximumConnections) in use, \(waiting) waiting); "
                + "raise maximumConnections or hold connections for less time")
    }
}
