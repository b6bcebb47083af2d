import CLibPQ
import Foundation
import Glibc
import Synchronization

/// One thread that waits (epoll) on the sockets of every connection with a statement in
/// flight and lets each connection read its result when its socket turns readable.
///
/// Statements are sent by the caller without blocking (libpq non-blocking mode), so a query
/// costs one thread hand-off, from this thread back to the waiting task; many connections
/// share the one waiting thread, as pgbench's client threads do. It also keeps each statement's
/// deadline (``PostgresConfiguration/queryTimeout``) and tells the connection when it passed.
final class PostgresPoller: Sendable {
    /// The process-wide poller.
    static let shared = PostgresPoller()

    /// What a connection asked for: to read its socket, or to hear that `deadline` passed.
    private struct Registration {
        let connection: PostgresConnection
        let deadline: PollDeadline?
    }

    private let epoll: Int32
    private let waiting = Mutex(PollRegistrations<Registration>())
    /// How often, at most, the thread wakes to look for passed deadlines.
    private static let deadlineCheckInterval: Int32 = 50
    private let nextID = Atomic<UInt64>(0)

    private init() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epoll >= 0, "epoll_create1 failed: errno \(errno)")
        let thread = Thread { [self] in self.run() }
        thread.name = "parley.postgres.poller"
        thread.start()
    }

    /// A fresh identifier for a connection's registrations.
    func makeID() -> UInt64 { nextID.add(1, ordering: .relaxed).newValue }

    /// Calls `connection.socketReadable()` once `socket` can be read, or
    /// `connection.deadlinePassed()` once `deadline` has passed without that.
    func watch(_ connection: PostgresConnection, id: UInt64, socket: Int32, deadline: PollDeadline?) {
        waiting.withLock { $0.set(id, Registration(connection: connection, deadline: deadline)) }
        var event = epoll_event(events: EPOLLIN.rawValue | EPOLLONESHOT.rawValue, data: epoll_data_t(u64: id))
        if epoll_ctl(epoll, EPOLL_CTL_MOD, socket, &event) != 0 {
            _ = epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event)
        }
    }

    /// Stops watching registration `id`, and `socket` when given (before it is closed). A
    /// socket is named by its number, and a closed one's number is soon another connection's:
    /// pass it only while it is still open (a closed socket left the epoll set when it closed).
    func forget(id: UInt64, socket: Int32?) {
        if let socket { _ = epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil) }
        _ = waiting.withLock { $0.remove(id) }
    }

    /// Whether registration `id` waits for its socket (tests: a statement is in flight).
    func isWatching(_ id: UInt64) -> Bool { waiting.withLock { $0.contains(id) } }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 128)
        var nextCheck = ContinuousClock.now
        while true {
            let count = epoll_wait(epoll, &events, Int32(events.count), Self.deadlineCheckInterval)
            for index in 0..<Int(max(0, count)) {
                let id = events[index].data.u64
                guard let entry = waiting.withLock({ $0.remove(id) }) else { continue }
                entry.connection.socketReadable()
            }
            // Deadlines are checked every deadlineCheckInterval, not after every event: under
            // load events come thousands of times a second and a deadline is rarely reached.
            let now = ContinuousClock.now
            guard now >= nextCheck else { continue }
            nextCheck = now + .milliseconds(Int(Self.deadlineCheckInterval))
            let passed = PollDeadline.now
            let overdue = waiting.withLock { $0.removeAll { $0.deadline.map { $0 <= passed } ?? false } }
            overdue.forEach { $0.connection.deadlinePassed() }
        }
    }
}
