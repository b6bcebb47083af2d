import Foundation
import Synchronization

/// Bridges the synchronous test clients to async work and back, with a deadline on both sides.
enum BlockingWait {
    /// Runs `operation` as a task on the global executor and blocks the calling thread until it
    /// finishes or `timeout` seconds pass (then throws). Call it only off the cooperative pool
    /// (see ``TestBodyExecutor``): blocking a cooperative thread can starve `operation` itself.
    static func result<Value: Sendable>(
        timeout: Double, _ operation: @escaping @Sendable () async throws -> Value
    ) throws -> Value {
        let outcome = Outcome<Value>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let result: Result<Value, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            outcome.result.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success, let result = outcome.result.withLock({ $0 }) else {
            throw TestSocket.Failure(description: "no response within \(timeout) s")
        }
        return try result.get()
    }

    /// Where the task leaves its result for the blocked thread.
    private final class Outcome<Value: Sendable>: Sendable {
        let result = Mutex<Result<Value, any Error>?>(nil)
    }

    /// Runs the blocking `operation` on a thread of its own and awaits it, so a socket read
    /// never holds a thread of the cooperative pool. `operation` carries its own deadline
    /// (socket timeouts).
    static func offPool<Value: Sendable>(_ operation: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try operation() }) }
            thread.name = "parley-test-io"
            thread.start()
        }
    }
}
