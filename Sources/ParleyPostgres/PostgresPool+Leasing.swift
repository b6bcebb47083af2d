import Synchronization

/// The pool's mutable state, guarded by its mutex.
struct PoolState: ~Copyable {
    var idle: [PostgresConnection] = []
    var open = 0
    var waiters: [Waiter] = []
    var nextWaiterID: UInt64 = 0
    var closed = false
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
    func acquire() async throws -> PostgresConnection {
        while true {
            switch try await reserve() {
            case .connection(let connection):
                if await connection.checkHealth(pingAfterIdle: configuration.healthCheckAfterIdle) {
                    return connection
                }
                logger.info("postgres connection replaced", metadata: ["reason": "failed health check"])
                connection.close()
                release(connection)
            case .slot:
                do {
                    return try await PostgresConnection.connect(configuration: configuration, logger: logger)
                } catch {
                    giveBackSlot()
                    throw error
                }
            }
        }
    }

    /// Returns a connection: to the next waiter, to the idle list, or closed when broken.
    func release(_ connection: PostgresConnection) {
        let usable = connection.isOpen
        let handoff: (Waiter, Lease)? = state.withLock { state in
            if state.closed || !usable {
                state.open -= 1
                return state.closed ? nil : grantSlot(&state)
            }
            if !state.waiters.isEmpty { return (state.waiters.removeFirst(), .connection(connection)) }
            state.idle.append(connection)
            return nil
        }
        if !usable || handoff == nil && state.withLock({ $0.closed }) { connection.close() }
        if let (waiter, lease) = handoff {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: lease)
        }
    }

    /// Gives back the right to open a connection after opening one failed.
    func giveBackSlot() {
        let handoff = state.withLock { state in
            state.open -= 1
            return grantSlot(&state)
        }
        if let (waiter, lease) = handoff {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: lease)
        }
    }

    /// Lets the first waiter open a connection in a freed slot.
    private func grantSlot(_ state: inout PoolState) -> (Waiter, Lease)? {
        guard !state.waiters.isEmpty, state.open < configuration.maximumConnections else { return nil }
        state.open += 1
        return (state.waiters.removeFirst(), .slot)
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
                    if state.open < configuration.maximumConnections {
                        state.open += 1
                        return .success(.slot)
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
