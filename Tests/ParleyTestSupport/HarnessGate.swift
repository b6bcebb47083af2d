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
        /// Waiters in arrival order, each with the places it needs.
        var waiters: [(places: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private static let state = Mutex(State())

    /// Runs `body` once a place is free (at once when the task holds one already).
    public static func run<T>(_ body: () async throws -> T) async throws -> T {
        try await run(places: 1, body)
    }

    /// Runs `body` with every place held: no other harness runs beside it (at once when the task
    /// holds a place already). For a test whose load would disturb the others: 5,000 connections
    /// opened at once (`LiveSessionScaleTests`) came with fresh requests of other suites, to
    /// servers in this process, reset before any byte came back (errno 104, two full runs in
    /// about a dozen).
    public static func runAlone<T>(_ body: () async throws -> T) async throws -> T {
        try await run(places: limit, body)
    }

    private static func run<T>(places: Int, _ body: () async throws -> T) async throws -> T {
        if inside { return try await body() }
        await acquire(places)
        defer { release(places) }
        return try await $inside.withValue(true) { try await body() }
    }

    /// Takes `places` once they are free and no earlier waiter is left (arrival order: a waiter
    /// for every place is not overtaken by later single ones, so it is served once those ahead of
    /// it end).
    private static func acquire(_ places: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.waiters.isEmpty, state.free >= places else {
                    state.waiters.append((places, continuation))
                    return false
                }
                state.free -= places
                return true
            }
            if now { continuation.resume() }
        }
    }

    /// Gives back `places` and serves the waiters at the head of the line they now suffice for.
    private static func release(_ places: Int) {
        let next = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.free += places
            var served: [CheckedContinuation<Void, Never>] = []
            while let first = state.waiters.first, first.places <= state.free {
                state.free -= first.places
                served.append(state.waiters.removeFirst().continuation)
            }
            return served
        }
        for continuation in next { continuation.resume() }
    }
}
