import Synchronization

/// A session's confirmed steps (``SessionRecord/path``), oldest first: a prefix of storage that
/// every state along one walk shares, so confirming a step appends one entry in place instead of
/// copying the path (issue 27: the 50th answer costs what the 1st does).
///
/// An array copied the path on every answer (a retain per field of every entry) and freed the
/// old copy when the cached state was replaced (a release per field): ~11k instructions at the
/// 50th step, nothing at the 1st. Here a state is the shared storage and a length: the next
/// state appends at that length when no other state has (the usual case: one writer per
/// session at a time), else it copies its prefix into new storage (two writers racing from the
/// same state: the loser's entry is dropped with its storage, or its rev is refused anyway).
/// Entries below a path's length are never written again, so a path reads them without a lock.
struct SessionPath: Sendable, RandomAccessCollection, ExpressibleByArrayLiteral {
    private let storage: Storage?
    /// The number of confirmed steps.
    let count: Int

    /// An empty path.
    init() {
        storage = nil
        count = 0
    }

    /// A path of `entries` in order, in storage of its own.
    init(_ entries: some Collection<PathEntry>) {
        guard !entries.isEmpty else {
            self.init()
            return
        }
        let storage = Storage(capacity: Self.capacity(after: entries.count))
        for (index, entry) in entries.enumerated() {
            _ = storage.claim(index)
            (storage.entries + index).initialize(to: entry)
        }
        self.init(storage, count: entries.count)
    }

    init(arrayLiteral entries: PathEntry...) {
        self.init(entries)
    }

    private init(_ storage: Storage?, count: Int) {
        self.storage = storage
        self.count = count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> PathEntry {
        precondition(position >= 0 && position < count, "a path entry out of range")
        // `count > 0`, so there is storage.
        return storage.unsafelyUnwrapped.entries[position]
    }

    /// This path with `entry` confirmed after it: in place when no other state of the session
    /// has appended at this length, else in new storage holding a copy of this path.
    func appending(_ entry: PathEntry) -> SessionPath {
        if let storage, storage.claim(count) {
            (storage.entries + count).initialize(to: entry)
            return SessionPath(storage, count: count + 1)
        }
        let copy = Storage(capacity: Self.capacity(after: count + 1))
        for index in 0..<count {
            _ = copy.claim(index)
            (copy.entries + index).initialize(to: self[index])
        }
        _ = copy.claim(count)
        (copy.entries + count).initialize(to: entry)
        return SessionPath(copy, count: count + 1)
    }

    /// This path without its last entry (going back): the same storage, one entry shorter.
    func droppingLast() -> SessionPath {
        count <= 1 ? SessionPath() : SessionPath(storage, count: count - 1)
    }

    /// Room for `count` entries and as many again (at least four): a walk appends one a step.
    private static func capacity(after count: Int) -> Int {
        Swift.max(4, 2 * count)
    }

    /// Entries written once each, at the index ``claim(_:)`` handed out.
    ///
    /// `@unchecked Sendable`: `entries` is a pointer, and an entry is written exactly once, by
    /// the one caller whose `claim` of its index succeeded (an atomic compare-and-exchange), before
    /// any path that includes it exists; paths read only indices below their length, all written
    /// before the path was made, so no entry is read while it is written.
    private final class Storage: @unchecked Sendable {
        let capacity: Int
        let entries: UnsafeMutablePointer<PathEntry>
        /// How many entries are claimed (each claimed one is written by its claimer before it is read).
        private let claimed = Atomic<Int>(0)

        init(capacity: Int) {
            self.capacity = capacity
            entries = .allocate(capacity: capacity)
        }

        /// Takes index `index` for writing when it is the next free one: true once per index.
        func claim(_ index: Int) -> Bool {
            index < capacity
                && claimed.compareExchange(expected: index, desired: index + 1, ordering: .acquiringAndReleasing)
                    .exchanged
        }

        deinit {
            entries.deinitialize(count: claimed.load(ordering: .acquiring))
            entries.deallocate()
        }
    }
}
