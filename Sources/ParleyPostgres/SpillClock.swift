import Dispatch
import Foundation
import Synchronization

/// One thread that calls ``CommitQueue``s back when a spill deadline passes (`spillAfter`: send
/// waiting items beside a batch that has been out too long).
///
/// Each deadline used to be a task sleeping on Swift's global pool: creating it woke a worker
/// thread, the sleep went through Dispatch's timer thread, and the wake-up through a worker again
/// before the queue was even looked at; under a c=32 answer load, where nearly every batch arms
/// one, that pool and its timer thread took 12% of the server's samples (perf, issue 27 round
/// 10). Here a deadline is an entry in a table, and a later one armed while the thread sleeps
/// until an earlier one costs nothing: the thread wakes once per deadline that passes, or when
/// one comes due sooner than it planned to wake.
@usableFromInline
final class SpillClock: Sendable {
    /// The process's clock. A clock's thread starts with its first deadline and then lives as
    /// long as the process (it sleeps while nothing is armed): the queues share this one.
    @usableFromInline static let shared = SpillClock()

    private struct State {
        var deadlines: [ObjectIdentifier: (at: ContinuousClock.Instant, fire: @Sendable () -> Void)] = [:]
        /// When the thread will wake on its own (nil: only when signalled).
        var wakeAt: ContinuousClock.Instant?
        var started = false
    }

    private let state = Mutex(State())
    /// Signalled when a deadline comes due sooner than `wakeAt`; a signal that finds the thread
    /// awake only makes its next wait return at once (a harmless extra look).
    private let wakeups = DispatchSemaphore(value: 0)

    /// Calls `fire` on the clock's thread once `deadline` has passed, in place of whatever `owner`
    /// armed before. `fire` must not block: other owners' deadlines wait behind it.
    @usableFromInline
    func arm(
        _ owner: ObjectIdentifier, at deadline: ContinuousClock.Instant, _ fire: @escaping @Sendable () -> Void
    ) {
        let (signal, start) = state.withLock { state -> (Bool, Bool) in
            state.deadlines[owner] = (deadline, fire)
            defer { state.started = true }
            guard let wakeAt = state.wakeAt else { return (true, !state.started) }
            return (deadline < wakeAt, !state.started)
        }
        if start { Thread { [self] in run() }.start() }
        if signal { wakeups.signal() }
    }

    private func run() {
        while true {
            let now = ContinuousClock.now
            let (due, next) = state.withLock { state -> ([@Sendable () -> Void], ContinuousClock.Instant?) in
                var due: [@Sendable () -> Void] = []
                var next: ContinuousClock.Instant?
                for (owner, entry) in state.deadlines {
                    if entry.at <= now {
                        due.append(entry.fire)
                        state.deadlines[owner] = nil
                    } else if next.map({ entry.at < $0 }) ?? true {
                        next = entry.at
                    }
                }
                state.wakeAt = next
                return (due, next)
            }
            // A callback may arm again: look at the table once more before sleeping.
            guard due.isEmpty else {
                for fire in due { fire() }
                continue
            }
            if let next {
                let nanoseconds = now.duration(to: next).components
                let delay = Int(nanoseconds.seconds) * 1_000_000_000 + Int(nanoseconds.attoseconds / 1_000_000_000)
                _ = wakeups.wait(timeout: .now() + .nanoseconds(max(0, delay)))
            } else {
                wakeups.wait()
            }
        }
    }
}
