import Foundation
import Synchronization

/// A request sent on a thread of its own, its response collected later.
final class Background<Value: Sendable>: Sendable {
    private enum State {
        case running
        case waiting(CheckedContinuation<Result<Value, any Error>, Never>)
        case finished(Result<Value, any Error>)
    }
    private let state = Mutex(State.running)

    init(_ body: @escaping @Sendable () throws -> Value) {
        Thread.detachNewThread { [self] in
            let outcome = Result { try body() }
            let waiter = state.withLock { state -> CheckedContinuation<Result<Value, any Error>, Never>? in
                defer { state = .finished(outcome) }
                if case .waiting(let continuation) = state { return continuation }
                return nil
            }
            waiter?.resume(returning: outcome)
        }
    }

    /// The response, once it came (the client's own read timeout is the hang guard).
    func wait() async throws -> Value {
        let outcome = await withCheckedContinuation { continuation in
            let known = state.withLock { state -> Result<Value, any Error>? in
                if case .finished(let outcome) = state { return outcome }
                state = .waiting(continuation)
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
        return try outcome.get()
    }
}
