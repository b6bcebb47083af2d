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
        var live: [LiveKey: LiveRelease?] = [:]
        var versions: [VersionKey: StoredFlowVersion] = [:]
        var released: Set<VersionKey> = []
        /// Bumped by every invalidation, so a database read that raced with one is not cached.
        var invalidations: UInt64 = 0
    }

    private let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = limit }

    /// `.some(release or nil)` when known, `nil` when it must be read from the database.
    func live(flow: String, channel: String) -> LiveRelease?? {
        let key = LiveKey(flow: ScalarKey(flow), channel: ScalarKey(channel))
        return state.withLock { $0.live[key] }
    }

    /// A token to take *before* reading the live version from the database, for
    /// ``remember(live:flow:channel:readAfter:)``.
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
            if state.live.count >= limit { state.live.removeAll(keepingCapacity: true) }
            state.live[key] = .some(release)
            for version in [release?.base, release?.rollout?.version].compactMap({ $0 }) {
                Self.store(version, in: &state, limit: limit)
            }
        }
    }

    /// A decoded version, if cached.
    func version(flow: String, number: Int) -> StoredFlowVersion? {
        state.withLock { $0.versions[VersionKey(flow: ScalarKey(flow), version: number)] }
    }

    /// Remembers a decoded version.
    func remember(version: StoredFlowVersion) {
        state.withLock { Self.store(version, in: &$0, limit: limit) }
    }

    /// Whether the version is known to have been released (releases are never undone).
    func isKnownReleased(flow: String, number: Int) -> Bool {
        state.withLock { $0.released.contains(VersionKey(flow: ScalarKey(flow), version: number)) }
    }

    /// Remembers that a version was released.
    func rememberReleased(flow: String, number: Int) {
        state.withLock { state in
            if state.released.count >= limit * 8 { state.released.removeAll(keepingCapacity: true) }
            state.released.insert(VersionKey(flow: ScalarKey(flow), version: number))
        }
    }

    /// Forgets the live version of one (flow, channel): a release happened.
    func invalidate(flow: String, channel: String) {
        let key = LiveKey(flow: ScalarKey(flow), channel: ScalarKey(channel))
        state.withLock { state in
            state.invalidations &+= 1
            state.live.removeValue(forKey: key)
        }
    }

    /// Forgets every live mapping (e.g. notifications may have been missed).
    func invalidateAll() {
        state.withLock { state in
            state.invalidations &+= 1
            state.live.removeAll()
        }
    }

    private static func store(_ version: StoredFlowVersion, in state: inout State, limit: Int) {
        if state.versions.count >= limit { state.versions.removeAll(keepingCapacity: true) }
        state.versions[VersionKey(flow: ScalarKey(version.flowId), version: version.version)] = version
    }
}
