import Logging
import ParleyPostgres

/// What every handler shares: stores, caches, metrics and settings.
struct ServiceContext: Sendable {
    let configuration: ServiceConfiguration
    let pool: PostgresPool
    let flows: FlowStore
    let sessions: SessionStore
    let webhooks: WebhookStore
    let snapshots: SnapshotCache
    let followers: SessionFollowers
    let access: AccessStore
    let live: LiveVersionCache
    let screens: ScreenRenderer
    let cores: CoreCapabilities
    let locales: LocaleChoices
    let metrics: MetricsRegistry
    let logger: Logger

    init(configuration: ServiceConfiguration, pool: PostgresPool, metrics: MetricsRegistry, logger: Logger) {
        self.configuration = configuration
        self.pool = pool
        flows = FlowStore(pool: pool)
        sessions = SessionStore(
            pool: pool,
            committer: GroupCommitter(
                pool: pool, opening: SessionStore.batchOpening, closing: SessionStore.batchClosing),
            sealing: AnswerSealing(keyring: configuration.dataKeyring))
        webhooks = WebhookStore(pool: pool)
        snapshots = SnapshotCache(
            limit: configuration.maxCachedSnapshots, byteLimit: configuration.maxCachedSnapshotBytes)
        access = AccessStore(pool: pool)
        followers = SessionFollowers(
            maxStreams: configuration.liveMaxStreams, queueBytes: configuration.liveStreamQueueBytes, metrics: metrics)
        live = LiveVersionCache(limit: configuration.maxCachedVersions)
        // With a client key, a shared cache must not hand a screen to callers without it.
        let scope = configuration.clientKey == nil ? "public" : "private"
        screens = ScreenRenderer(
            cache: ScreenCache(limit: configuration.maxCachedScreens),
            cacheControl: "\(scope), max-age=\(configuration.screenMaxAgeSeconds), must-revalidate")
        cores = CoreCapabilities(limit: configuration.maxCachedCoreHeaders)
        locales = LocaleChoices(limit: configuration.maxCachedCoreHeaders)
        self.metrics = metrics
        self.logger = logger
    }

    /// What is live for a flow on a channel (its full release and any rollout), from memory or
    /// the database; nil when the flow was never released there.
    func liveRelease(flow: String, channel: String) async throws -> LiveRelease? {
        if let known = live.live(flow: flow, channel: channel) { return known }
        let readAfter = live.invalidationCount()
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
        live.remember(live: release, flow: flow, channel: channel, readAfter: readAfter)
        return release
    }

    /// A version by number, from memory or the database.
    func version(flow: String, number: Int) async throws -> StoredFlowVersion? {
        if let known = live.version(flow: flow, number: number) { return known }
        guard let version = try await flows.version(flow, number) else { return nil }
        live.remember(version: version)
        return version
    }
}
