public import Glibc

/// A lock whose waiters sleep at once (a plain `pthread_mutex_t`, no spinning), for state that
/// many threads touch briefly. The standard library's `Mutex` spins up to a thousand times
/// before it sleeps; with 16 responder threads on 2 cores, a holder preempted inside its
/// critical section kept the waiters spinning in its place: 19% of the server's CPU under the
/// c=32 answer load went to `_MutexHandle._lockSlow` on the snapshot cache's lock (perf, issue
/// 27 round 4, docs/design-notes.md), and 2-5% on the commit queues' (round 8). It lives here
/// for ``CommitQueue``; the server's caches use it too.
///
/// `@unchecked Sendable` is safe for the reasons the standard library's `Mutex` is: `value` is
/// read and written only inside ``withLock(_:)``, between `pthread_mutex_lock` and
/// `pthread_mutex_unlock` of the mutex this instance alone owns (allocated once, so its address
/// never moves), and it comes in and goes out only as `sending` (no reference to it is shared).
public final class SleepingMutex<Value>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Unchecked: only ``withLock(_:)`` touches it, under the lock, so two accesses never overlap
    /// (a nested `withLock` would deadlock first). Checked, every acquisition paid a dynamic
    /// exclusivity check (`swift_beginAccess` and `swift_endAccess`, ~90 instructions), six times
    /// an answer through the snapshot cache and the commit queue.
    @usableFromInline @exclusivity(unchecked) var value: Value

    public init(_ value: sending Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    @inlinable
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
