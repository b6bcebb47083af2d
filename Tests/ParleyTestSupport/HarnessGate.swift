import Foundation
import Synchronization

/// At most a few service worlds (a harness's pool, its servers' pools and listeners) at once in
/// the test process. Swift Testing starts every test at once; on a small machine dozens of
/// harnesses then held over 200 Postgres connections together and the cluster refused more
/// ("sorry, too many clients already", answered as 503s), while the two cores only switched
/// between them. A harness started inside another one's body passes straight through, so
/// nesting can never wait on itself. A waiter is served in arrival order; its wait is bounded by
/// the holders ahead of it, each under its suite's time limit.
public enum HarnessGate {
    /// Four worlds per core, at least eight: enough to keep the cores busy while some wait on
    /// the database or the clock, few enough that their connections stay far below the test
    /// cluster's `max_connections` (200, deploy/postgres).
    public static let limit = max(8, ProcessInfo.processInfo.activeProcessorCount * 4)

    /// Whether the current task already holds a place.
    @TaskLocal static var inside = false

    private struct State {
        var free = HarnessGate.limit
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private static let state = Mutex(State())

    /// Runs `body` once a place is free (at once when the task holds one already).
    public static func run<T>(_ body: () async throws -> T) async throws -> T {
        if inside { return try await body() }
        await acquire()
        defer { release() }
        return try await $inside.withValue(true) { try await body() }
    }

    private static func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.free > 0 else {
                    state.waiters.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    private static func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
