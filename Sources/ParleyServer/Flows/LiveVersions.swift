/// What is live for each flow and channel, and the versions sessions are pinned to: read from
/// memory, and from the database once per change (a release notification empties the cache).
/// Screens, sessions and the flow routes share one, so a release is seen by all of them at once.
struct LiveVersions: Sendable {
    /// The versions and releases in the database.
    let flows: FlowStore
    /// What this process remembers of them.
    let cache: LiveVersionCache

    /// What is live for a flow on a channel (its full release and any rollout), from memory or
    /// the database; nil when the flow was never released there.
    func liveRelease(flow: String, channel: String) async throws -> LiveRelease? {
        if let known = cache.live(flow: flow, channel: channel) { return known }
        let readAfter = cache.invalidationCount()
        var release: LiveRelease?
        if let state = try await flows.liveReleaseState(flow, channel: channel) {
            var rollout: LiveRelease.Rollout?
            if let partial = state.rollout, let version = try await version(flow: flow, number: partial.version) {
                rollout = LiveRelease.Rollout(
                    version: version, percent: partial.percent, rolloutId: partial.rolloutId, halted: partial.halted)
            }
            var base: StoredFlowVersion?
            if let number = state.baseVersion { base = try await version(flow: flow, number: number) }
            release = LiveRelease(base: base, rollout: rollout)
        }
        cache.remember(live: release, flow: flow, channel: channel, readAfter: readAfter)
        return release
    }

    /// A version by number, from memory or the database.
    func version(flow: String, number: Int) async throws -> StoredFlowVersion? {
        if let known = cache.version(flow: flow, number: number) { return known }
        guard let version = try await flows.version(flow, number) else { return nil }
        cache.remember(version: version)
        return version
    }
}
