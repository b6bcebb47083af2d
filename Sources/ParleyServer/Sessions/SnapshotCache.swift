import ParleyPostgres
import Synchronization

/// The latest snapshot of recently used sessions, so an unchanged session is answered from
/// memory. Coherent across processes: every change NOTIFYs `parley_sessions` with the
/// session's key and new rev, and ``invalidate(key:rev:)`` leaves a marker of that rev so a
/// database read that raced with the change can never put the older snapshot back. Snapshots are
/// found by the id's text (``CachedSessionID``), notifications by the key's bits (``SessionKey``):
/// neither is hashed as a `String`.
final class SnapshotCache: Sendable {
    /// A session's state and, once a read rendered it, its snapshot; shared by reference: a slot
    /// is copied in and out of the dictionary with one retain, not one per field of the state.
    private final class Entry: Sendable {
        /// The state (issue 27: an answer on a cache hit reads nothing).
        let record: SessionRecord
        /// The state's snapshot, kept once a read (`GET`, a live stream) rendered it. A change
        /// keeps the state alone: its client got the snapshot in the response, most sessions are
        /// not read again before their next change, and the bytes were a fifth of the cache's
        /// memory after a write load (issue 27: RSS).
        let snapshot: SessionSnapshot?

        init(record: SessionRecord, snapshot: SessionSnapshot?) {
            self.record = record
            self.snapshot = snapshot
        }
    }

    private struct Slot {
        /// The session's key: its ``State/ids`` entry goes with the slot.
        let key: SessionKey
        /// The newest rev known for the session (from a snapshot or a notification).
        var rev: Int
        /// The state of that rev (and its snapshot), when known.
        var entry: Entry?
    }

    private struct State {
        var slots: LRUDictionary<CachedSessionID, Slot>
        /// Session id by key, for notifications (which never carry ids): one per slot, removed
        /// with it (so a plain dictionary, bounded by the slots).
        var ids: [SessionKey: CachedSessionID]
        /// The newest rev notified per key, cached or not: a read that started before the
        /// notification arrived must not be stored.
        var notified: NotifiedRevs
    }

    /// Taken two or three times per answer by any of the responder threads and the listener:
    /// a lock whose waiters sleep rather than spin (``SleepingMutex``).
    private let state: SleepingMutex<State>
    /// Raised (under `state`'s lock) each time ``invalidateAll()`` forgets everything; read
    /// before a database read (``epoch``) and compared under the lock when its state is stored.
    private let epochCounter = Atomic<UInt64>(0)

    /// At most `limit` sessions whose bodies add up to at most `byteLimit` bytes (and as many id
    /// and notification markers); the least recently used go first. Bodies are most of the
    /// cache's memory and range from a few hundred bytes to tens of kilobytes, so a count alone
    /// would not bound it (20,000 snapshots of the shipped flows held ~30 MB).
    init(limit: Int, byteLimit: Int = .max) {
        state = SleepingMutex(
            State(
                slots: LRUDictionary(capacity: limit, costLimit: byteLimit), ids: [:],
                notified: NotifiedRevs(capacity: 2 * limit)))
    }

    /// Sessions cached, the bytes of their bodies, and the ids kept for notifications.
    var size: (sessions: Int, bytes: Int, ids: Int) {
        state.withLock { ($0.slots.count, $0.slots.totalCost, $0.ids.count) }
    }

    /// The cache's epoch, to be taken before a database read and kept in the state it reads
    /// (``SessionRecord/cacheEpoch``): ``store(_:bodyCount:snapshot:id:)`` refuses a state read in
    /// an earlier epoch. A reset clears the notified revs that guard stores, so without it a read
    /// under way when the listener reconnected could put back a rev older than one changed while
    /// it was disconnected, and serve it until the session's next change.
    var epoch: UInt64 { epochCounter.load(ordering: .acquiring) }

    /// The cached snapshot of a session, when it is the newest known and a read rendered it
    /// (``SessionLedger/cachedSnapshot(_:)`` renders it from the cached state otherwise).
    func snapshot(_ id: String) -> SessionSnapshot? {
        state.withLock { $0.slots.value(for: CachedSessionID(id))?.entry }?.snapshot
    }

    /// The cached state of a session and its snapshot when rendered, when it is the newest known rev.
    func current(_ id: String) -> (snapshot: SessionSnapshot?, record: SessionRecord)? {
        guard let entry = state.withLock({ $0.slots.value(for: CachedSessionID(id))?.entry }) else { return nil }
        return (entry.snapshot, entry.record)
    }

    /// The state of a session's newest known rev, when cached: what a change reads first. Only
    /// the state leaves the lock (one retain of its box).
    func record(_ id: String) -> SessionRecord? {
        state.withLock { $0.slots.value(for: CachedSessionID(id))?.entry }?.record
    }

    /// Remembers a session's state (with its rendered `snapshot`, when a read will want it again)
    /// unless a newer rev is already known. `bodyCount` is the length of the state's snapshot:
    /// a session counts twice that against the byte limit, held or not (its answers are about as
    /// large as the body's prefill and path).
    func store(_ record: SessionRecord, bodyCount: Int, snapshot: SessionSnapshot? = nil, id: SessionID) {
        let key = id.key
        let rev = record.rev
        let id = CachedSessionID(id.text)
        let cost = bodyCount * 2
        let entry = Entry(record: record, snapshot: snapshot?.compacted())
        // Every write stores one and a full cache evicts one: the evicted state (and snapshot) is
        // freed after the lock is released, not while writers and the listener wait.
        let gone = state.withLock { state -> (replaced: Slot?, evicted: [Slot]) in
            if let readIn = record.cacheEpoch, readIn != epochCounter.load(ordering: .relaxed) { return (nil, []) }
            let cached = state.slots.peek(id, { $0.rev })
            if let cached, cached > rev { return (nil, []) }
            if let notified = state.notified.rev(key), notified > rev { return (nil, []) }
            // A cached session's id is in `ids` already (its key is the SHA-256 of that id).
            if cached == nil { state.ids[key] = id }
            let gone = state.slots.replace(Slot(key: key, rev: rev, entry: entry), for: id, cost: cost)
            // An evicted session's id goes too: kept, the ids outlived their slots threefold.
            for slot in gone.evicted where slot.key != key { state.ids.removeValue(forKey: slot.key) }
            return gone
        }
        _ = gone
    }

    /// Remembers `snapshot` and the state it shows (what a read rendered, kept for the next read).
    func store(_ snapshot: SessionSnapshot, record: SessionRecord, id: SessionID) {
        store(record, bodyCount: snapshot.bodyCount, snapshot: snapshot, id: id)
    }

    /// A change at `rev` happened (in any process): drop older snapshots of that session.
    func invalidate(key: SessionKey, rev: Int) {
        invalidate { note in note(key, rev) }
    }

    /// Changes happened (a group-committed batch's notification lists many): drops older
    /// snapshots of those sessions under one acquisition of the lock.
    func invalidate(_ changes: [(key: SessionKey, rev: Int)]) {
        invalidate { note in
            for (key, rev) in changes { note(key, rev) }
        }
    }

    /// ``invalidate(_:)-([(key:rev:)])`` for the changes `changes` passes to its argument, one by
    /// one (``SessionChangeNotice/forEachKey(in:_:)`` reads them from a notification where they
    /// lie): no array of them, and none of the dropped entries for the common notification that
    /// drops one (each answer's own comes back here), which are released after the lock.
    func invalidate(_ changes: ((SessionKey, Int) -> Void) -> Void) {
        let dropped = state.withLock { state -> (first: Entry?, more: [Entry]) in
            var dropped: (first: Entry?, more: [Entry]) = (nil, [])
            changes { key, rev in
                state.notified.note(key, rev: rev)
                guard let id = state.ids[key] else { return }
                // In place, and only the entry's reference moved out: replacing the slot copied
                // it, a snapshot and a state, and the answer's own notification lands here.
                let old = state.slots.modify(id) { slot, cost -> Entry? in
                    guard slot.rev < rev else { return nil }
                    slot.rev = rev
                    cost = 0
                    defer { slot.entry = nil }
                    return slot.entry
                }
                guard let old, let old else { return }
                if dropped.first == nil { dropped.first = old } else { dropped.more.append(old) }
            }
            return dropped
        }
        _ = dropped
    }

    /// Forgets everything (the listener reconnected and may have missed notifications).
    func invalidateAll() {
        state.withLock { state in
            epochCounter.add(1, ordering: .releasing)
            state.slots.removeAll()
            state.ids.removeAll()
            state.notified.removeAll()
        }
    }
}
