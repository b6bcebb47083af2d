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
    let access: AccessStore
    let live: LiveVersionCache
    let screens: ScreenRenderer
    let cores: CoreCapabilities
    let metrics: MetricsRegistry
    let logger: Logger

    init(configuration: ServiceConfiguration, pool: PostgresPool, metrics: MetricsRegistry, logger: Logger) {
        self.configuration = configuration
        self.pool = pool
        flows = FlowStore(pool: pool)
        sessions = SessionStore(pool: pool)
        webhooks = WebhookStore(pool: pool)
        snapshots = SnapshotCache(limit: configuration.maxCachedSnapshots)
        access = AccessStore(pool: pool)
        live = LiveVersionCache(limit: configuration.maxCachedVersions)
        // With a client key, a shared cache must not hand a screen to callers without it.
        let scope = configuration.clientKey == nil ? "public" : "private"
        screens = ScreenRenderer(
            cache: ScreenCache(limit: configuration.maxCachedScreens),
            cacheControl: "\(scope), max-age=\(configuration.screenMaxAgeSeconds), must-revalidate")
        cores = CoreCapabilities(limit: configuration.maxCachedCoreHeaders)
        self.metrics = metrics
        self.logger = logger
    }

    /// The live version of a flow on a channel, from memory or the database.
    func liveVersion(flow: String, channel: String) async throws -> StoredFlowVersion? {
        if let known = live.live(flow: flow, channel: channel) { return known }
        let readAfter = live.invalidationCount()
        let version = try await flows.liveVersion(flow, channel: channel)
        live.remember(live: version, flow: flow, channel: channel, readAfter: readAfter)
        return version
    }

    /// A version by number, from memory or the database.
    func version(flow: String, number: Int) async throws -> StoredFlowVersion? {
        if let known = live.version(flow: flow, number: number) { return known }
        guard let version = try await flows.version(flow, number) else { return nil }
        live.remember(version: version)
        return version
    }
}
