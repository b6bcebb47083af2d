import ParleyCore
import Synchronization

/// What is live per (flow, channel) (a ``LiveRelease``: the full release's version and any
/// rollout), and decoded flow versions by number, kept in memory. Versions are immutable, so only the live mapping
/// needs invalidation: on every release, in every process (LISTEN/NOTIFY).
final class LiveVersionCache: Sendable {
    private struct LiveKey: Hashable {
        let flow: ScalarKey
        let channel: ScalarKey
    }

    private struct VersionKey: Hashable {
        let flow: ScalarKey
        let version: Int
    }

    private struct State {
        /// `nil` value: known to have no live release.
        var live: LRUDictionary<LiveKey, LiveRelease?>
        var versions: LRUDictionary<VersionKey, StoredFlowVersion>
        var released: LRUDictionary<VersionKey, Void>
        /// Bumped by every invalidation, so a database read that raced with one is not cached.
        var invalidations: UInt64 = 0
    }

    private let state: Mutex<State>
    /// ``State/invalidations`` where it can be read without the lock: ``HotScreens`` compares
    /// it on every hit, and a lock both loops take on every request is what it avoids.
    private let invalidations = Atomic<UInt64>(0)

    /// At most `limit` live mappings and decoded versions (and 8× as many released markers);
    /// the least recently used go first.
    init(limit: Int) {
        state = Mutex(
            State(
                live: LRUDictionary(capacity: limit), versions: LRUDictionary(capacity: limit),
                released: LRUDictionary(capacity: limit * 8)))
    }

    /// `.some(release or nil)` when known, `nil` when it must be read from the database.
    func live(flow: String, channel: String) -> LiveRelease?? {
        let key = LiveKey(flow: ScalarKey(flow), channel: ScalarKey(channel))
        return state.withLock { $0.live.value(for: key) }
    }

    /// A token to take *before* reading the live version from the database, for
    /// ``remember(live:flow:channel:readAfter:)``.
    /// Changes whenever a live mapping is forgotten (a release, or notifications missed), read
    /// without the lock: an answer derived from the mappings at one value is stale at another.
    var generation: UInt64 { invalidations.load(ordering: .acquiring) }

    func invalidationCount() -> UInt64 {
        state.withLock { $0.invalidations }
    }

    /// Remembers what is live (or that nothing is) as read from the database after
    /// `readAfter` was taken — unless a release was invalidated since: the read may
    /// predate that release, and caching it would serve the old version until the next one.
    func remember(live release: LiveRelease?, flow: String, channel: String, readAfter: UInt64) {
        let key = LiveKey(flow: ScalarKey(flow), channel: ScalarKey(channel))
        state.withLock { state in
            guard state.invalidations == readAfter else { return }
            state.live.set(release, for: key)
            for version in [release?.base, release?.rollout?.version].compactMap({ $0 }) {
                Self.store(version, in: &state)
            }
        }
    }

    /// A decoded version, if cached.
    func version(flow: String, number: Int) -> StoredFlowVersion? {
        state.withLock { $0.versions.value(for: VersionKey(flow: ScalarKey(flow), version: number)) }
    }

    /// Remembers a decoded version.
    func remember(version: StoredFlowVersion) {
        state.withLock { Self.store(version, in: &$0) }
    }

    /// Whether the version is known to have been released (releases are never undone).
    func isKnownReleased(flow: String, number: Int) -> Bool {
        state.withLock { $0.released.value(for: VersionKey(flow: ScalarKey(flow), version: number)) != nil }
    }

    /// Remembers that a version was released.
    func rememberReleased(flow: String, number: Int) {
        state.withLock { $0.released.set((), for: VersionKey(flow: ScalarKey(flow), version: number)) }
    }

    /// Forgets the live version of one (flow, channel): a release happened.
    func invalidate(flow: String, channel: String) {
        let key = LiveKey(flow: ScalarKey(flow), channel: ScalarKey(channel))
        state.withLock { state in
            state.invalidations &+= 1
            invalidations.store(state.invalidations, ordering: .releasing)
            state.live.removeValue(forKey: key)
        }
    }

    /// Forgets every live mapping (e.g. notifications may have been missed).
    func invalidateAll() {
        state.withLock { state in
            state.invalidations &+= 1
            invalidations.store(state.invalidations, ordering: .releasing)
            state.live.removeAll()
        }
    }

    private static func store(_ version: StoredFlowVersion, in state: inout State) {
        state.versions.set(version, for: VersionKey(flow: ScalarKey(version.flowId), version: version.version))
    }
}
