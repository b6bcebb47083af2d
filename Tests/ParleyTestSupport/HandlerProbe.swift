import Foundation
import Synchronization

/// Lets a test see handlers start and decide when they end, so it synchronises on events
/// ("four handlers are blocked now") instead of sleeping and hoping the machine kept up.
/// Every wait has a generous ceiling, a hang guard only: on time it never decides a result.
public final class HandlerProbe: Sendable {
    private let state = Mutex<(entered: Int, released: Bool)>((0, false))

    /// A probe no handler has entered yet.
    public init() {}

    /// How many handlers have entered.
    public var entered: Int { state.withLock { $0.entered } }

    /// Called by a handler as it starts.
    public func enter() { state.withLock { $0.entered += 1 } }

    /// Lets every held handler finish (now and later).
    public func release() { state.withLock { $0.released = true } }

    /// Waits until `count` handlers have entered; false when `timeout` seconds pass first.
    public func waitForEntries(_ count: Int, timeout: Double = 30) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while entered < count {
            guard Date() < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    /// Blocks the calling thread, as a libpq call would, until ``release()`` (at most `timeout` s).
    public func blockUntilReleased(timeout: Double = 30) {
        let deadline = Date().addingTimeInterval(timeout)
        while !state.withLock({ $0.released }), Date() < deadline { usleep(1_000) }
    }

    /// Suspends without holding a thread until ``release()`` (at most `timeout` s).
    public func parkUntilReleased(timeout: Double = 30) async {
        let deadline = Date().addingTimeInterval(timeout)
        while !state.withLock({ $0.released }), Date() < deadline { try? await Task.sleep(for: .milliseconds(2)) }
    }
}
