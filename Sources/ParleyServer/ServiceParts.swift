import Logging
import ParleyPostgres

/// The stores and caches of one service, each built once, and the handler of each feature
/// given only the ones it uses. Only the composition root (``ParleyService``, and
/// ``SessionInspector`` for the command line) holds this; no handler can reach it.
struct ServiceParts: Sendable {
    let configuration: ServiceConfiguration
    let pool: PostgresPool
    let metrics: MetricsRegistry
    let logger: Logger
    let versions: LiveVersions
    let sessions: SessionStore
    let snapshots: SnapshotCache
    let followers: SessionFollowers
    let webhooks: WebhookStore
    let access: AccessStore
    let screens: ScreenRenderer
    let cores: CoreCapabilities
    let locales: LocaleChoices
    let ledger: SessionLedger

    init(configuration: ServiceConfiguration, pool: PostgresPool, metrics: MetricsRegistry, logger: Logger) {
        self.configuration = configuration
        self.pool = pool
        self.metrics = metrics
        self.logger = logger
        versions = LiveVersions(
            flows: FlowStore(pool: pool), cache: LiveVersionCache(limit: configuration.maxCachedVersions))
        sessions = SessionStore(
            pool: pool,
            appender: SessionAppender(
                committer: GroupCommitter(pool: pool), configuration: pool.configuration, logger: logger),
            sealing: AnswerSealing(keyring: configuration.dataKeyring))
        snapshots = SnapshotCache(
            limit: configuration.maxCachedSnapshots, byteLimit: configuration.maxCachedSnapshotBytes)
        followers = SessionFollowers(
            maxStreams: configuration.liveMaxStreams, queueBytes: configuration.liveStreamQueueBytes, metrics: metrics)
        webhooks = WebhookStore(pool: pool)
        access = AccessStore(pool: pool)
        // With a client key, a shared cache must not hand a screen to callers without it.
        let scope = configuration.clientKey == nil ? "public" : "private"
        screens = ScreenRenderer(
            cache: ScreenCache(limit: configuration.maxCachedScreens),
            cacheControl: "\(scope), max-age=\(configuration.screenMaxAgeSeconds), must-revalidate")
        cores = CoreCapabilities(limit: configuration.maxCachedCoreHeaders)
        locales = LocaleChoices(limit: configuration.maxCachedCoreHeaders)
        ledger = SessionLedger(
            configuration: configuration, sessions: sessions, snapshots: snapshots, versions: versions,
            screens: screens, cores: cores, logger: logger)
    }

    /// Every feature's handler, wired from these parts.
    func handlers(openAPI: [UInt8]) -> FeatureHandlers {
        FeatureHandlers(
            screens: ScreenHandlers(
                configuration: configuration, versions: versions, screens: screens, cores: cores, locales: locales,
                metrics: metrics, hotScreens: HotScreens()),
            flows: FlowHandlers(configuration: configuration, versions: versions, locales: locales, logger: logger),
            bundles: BundleHandlers(
                configuration: configuration, access: access, flows: versions.flows, live: versions.cache,
                logger: logger),
            sessions: SessionHandlers(
                configuration: configuration, ledger: ledger, versions: versions, cores: cores, locales: locales,
                metrics: metrics, logger: logger),
            live: LiveHandlers(
                configuration: configuration, ledger: ledger, followers: followers, metrics: metrics),
            delivery: DeliveryHandlers(
                configuration: configuration, webhooks: webhooks,
                completions: CompletionFeed(pool: pool, keyring: configuration.dataKeyring), flows: versions.flows,
                logger: logger),
            privacy: PrivacyHandlers(sessions: sessions, snapshots: snapshots, metrics: metrics, logger: logger),
            operations: OperationsHandlers(
                readiness: MigrationReadiness(pool: pool, migrationsDirectory: configuration.migrationsDirectory),
                registry: metrics, openAPI: openAPI,
                coreModule: configuration.coreModule.map { StudioSite.page($0, contentType: "application/wasm") }),
            funnel: FunnelHandlers(store: FunnelStore(pool: pool), flows: versions.flows))
    }
}
