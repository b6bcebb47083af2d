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
        /// The state that snapshot shows (issue 27: an answer on a cache hit reads nothing).
        var record: SessionRecord?
    }

    private struct State {
        var slots: LRUDictionary<String, Slot>
        /// Session id by hex key, for notifications (which never carry ids).
        var ids: LRUDictionary<String, String>
        /// The newest rev notified per hex key, cached or not: a read that started before the
        /// notification arrived must not be stored.
        var notified: LRUDictionary<String, Int>
    }

    /// Taken two or three times per answer by any of the responder threads and the listener:
    /// a lock whose waiters sleep rather than spin (``SleepingMutex``).
    private let state: SleepingMutex<State>

    /// At most `limit` sessions whose bodies add up to at most `byteLimit` bytes (and as many id
    /// and notification markers); the least recently used go first. Bodies are most of the
    /// cache's memory and range from a few hundred bytes to tens of kilobytes, so a count alone
    /// would not bound it (20,000 snapshots of the shipped flows held ~30 MB).
    init(limit: Int, byteLimit: Int = .max) {
        state = SleepingMutex(
            State(
                slots: LRUDictionary(capacity: limit, costLimit: byteLimit), ids: LRUDictionary(capacity: limit),
                notified: LRUDictionary(capacity: limit)))
    }

    /// Sessions cached and the bytes of their bodies.
    var size: (sessions: Int, bytes: Int) {
        state.withLock { ($0.slots.count, $0.slots.totalCost) }
    }

    /// The cached snapshot of a session, when it is the newest known.
    func snapshot(_ id: String) -> SessionSnapshot? {
        state.withLock { $0.slots.value(for: id)?.snapshot }
    }

    /// The cached snapshot of a session and the state it shows, when it is the newest known rev.
    func current(_ id: String) -> (snapshot: SessionSnapshot, record: SessionRecord)? {
        state.withLock { state in
            guard let slot = state.slots.value(for: id), let snapshot = slot.snapshot, let record = slot.record else {
                return nil
            }
            return (snapshot, record)
        }
    }

    /// Remembers a snapshot (and the state it shows) unless a newer rev is already known.
    func store(_ snapshot: SessionSnapshot, record: SessionRecord? = nil, id: String, keyHex: String) {
        // Every write stores one and a full cache evicts one: the evicted snapshot (a body of
        // kilobytes) is freed after the lock is released, not while writers and the listener wait.
        let evicted = state.withLock { state -> [Slot] in
            if let rev = state.slots.peek(id, { $0.rev }), rev > snapshot.rev { return [] }
            if let notified = state.notified.peek(keyHex), notified > snapshot.rev { return [] }
            state.ids.set(id, for: keyHex)
            // The state's answers are about as large as the body's prefill and path: counted twice.
            let cost = snapshot.body.count * (record == nil ? 1 : 2)
            return state.slots.update(Slot(rev: snapshot.rev, snapshot: snapshot, record: record), for: id, cost: cost)
        }
        _ = evicted
    }

    /// A change at `rev` happened (in any process): drop older snapshots of that session.
    func invalidate(keyHex: String, rev: Int) {
        invalidate([(keyHex, rev)])
    }

    /// Changes happened (a group-committed batch's notification lists many): drops older
    /// snapshots of those sessions under one acquisition of the lock.
    func invalidate(_ changes: [(keyHex: String, rev: Int)]) {
        let dropped = state.withLock { state -> [Slot] in
            var dropped: [Slot] = []
            for (keyHex, rev) in changes {
                state.notified.set(max(rev, state.notified.peek(keyHex) ?? 0), for: keyHex)
                // Only the slot's rev is read (in place): copying the slot, a snapshot and a state,
                // cost more than the rest of the invalidation of an answer's own notification.
                guard let id = state.ids.peek(keyHex), let slotRev = state.slots.peek(id, { $0.rev }), slotRev < rev
                else { continue }
                dropped += state.slots.update(Slot(rev: rev, snapshot: nil, record: nil), for: id)
            }
            return dropped
        }
        _ = dropped
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
