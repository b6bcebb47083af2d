import CLibPQ
import Foundation
import Glibc
import Synchronization

/// One thread that waits (epoll) on the sockets of every connection with a statement in
/// flight and lets each connection read its result when its socket turns readable.
///
/// Statements are sent by the caller without blocking (libpq non-blocking mode), so a query
/// costs one thread hand-off, from this thread back to the waiting task; many connections
/// share the one waiting thread, as pgbench's client threads do.
final class PostgresPoller: Sendable {
    /// The process-wide poller.
    static let shared = PostgresPoller()

    private let epoll: Int32
    private let waiting = Mutex<[UInt64: PostgresConnection]>([:])
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

    /// Calls `connection.socketReadable()` once `socket` can be read.
    func watch(_ connection: PostgresConnection, id: UInt64, socket: Int32) {
        waiting.withLock { $0[id] = connection }
        var event = epoll_event(events: EPOLLIN.rawValue | EPOLLONESHOT.rawValue, data: epoll_data_t(u64: id))
        if epoll_ctl(epoll, EPOLL_CTL_MOD, socket, &event) != 0 {
            _ = epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event)
        }
    }

    /// Stops watching `socket` (before it is closed).
    func forget(id: UInt64, socket: Int32) {
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
        _ = waiting.withLock { $0.removeValue(forKey: id) }
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 128)
        while true {
            let count = epoll_wait(epoll, &events, Int32(events.count), -1)
            guard count > 0 else { continue }  // EINTR
            for index in 0..<Int(count) {
                let id = events[index].data.u64
                guard let connection = waiting.withLock({ $0.removeValue(forKey: id) }) else { continue }
                connection.socketReadable()
            }
        }
    }
}
