import Synchronization

/// The latest snapshot of recently used sessions, so an unchanged session is answered from
/// memory. Coherent across processes: every change NOTIFYs `parley_sessions` with the
/// session's key and new rev, and ``invalidate(keyHex:rev:)`` leaves a marker of that rev so a
/// database read that raced with the change can never put the older snapshot back.
final class SnapshotCache: Sendable {
    private struct Slot {
        /// The newest rev known for the session (from a snapshot or a notification).
        var rev: Int
        /// The snapshot of that rev, when known.
        var snapshot: SessionSnapshot?
    }

    private struct State {
        var slots: [String: Slot] = [:]
        /// Session id by hex key, for notifications (which never carry ids).
        var ids: [String: String] = [:]
        /// The newest rev notified per hex key, cached or not: a read that started before the
        /// notification arrived must not be stored.
        var notified: [String: Int] = [:]
    }

    private let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = limit }

    /// The cached snapshot of a session, when it is the newest known.
    func snapshot(_ id: String) -> SessionSnapshot? {
        state.withLock { $0.slots[id]?.snapshot }
    }

    /// Remembers a snapshot unless a newer rev is already known.
    func store(_ snapshot: SessionSnapshot, id: String, keyHex: String) {
        state.withLock { state in
            if let slot = state.slots[id], slot.rev > snapshot.rev { return }
            if let notified = state.notified[keyHex], notified > snapshot.rev { return }
            if state.slots.count >= limit {
                state.slots.removeAll(keepingCapacity: true)
                state.ids.removeAll(keepingCapacity: true)
            }
            state.slots[id] = Slot(rev: snapshot.rev, snapshot: snapshot)
            state.ids[keyHex] = id
        }
    }

    /// A change at `rev` happened (in any process): drop older snapshots of that session.
    func invalidate(keyHex: String, rev: Int) {
        state.withLock { state in
            if state.notified.count >= limit { state.notified.removeAll(keepingCapacity: true) }
            state.notified[keyHex] = max(rev, state.notified[keyHex] ?? 0)
            guard let id = state.ids[keyHex], let slot = state.slots[id], slot.rev < rev else { return }
            state.slots[id] = Slot(rev: rev, snapshot: nil)
        }
    }

    /// Forgets everything (the listener reconnected and may have missed notifications).
    func invalidateAll() {
        state.withLock { state in
            state.slots.removeAll()
            state.ids.removeAll()
            state.notified.removeAll()
        }
    }
}
