public import Logging
import ParleyCore
public import ParleyHTTP
public import ParleyPostgres
import Synchronization

/// The Parley service (DESIGN.md "HTTP API"): builds the router from
/// ``ServiceRoute/all`` and keeps the caches of every process coherent by
/// listening for release notifications.
public final class ParleyService: Sendable {
    /// The service's settings.
    public let configuration: ServiceConfiguration
    /// Every series `/metrics` shows.
    public let metrics: MetricsRegistry
    private let parts: ServiceParts
    private let listenerTask: ListenerTask
    private let sessionSubscription = Mutex<PostgresSubscription?>(nil)
    private let sweeperTask: ListenerTask
    private let deliveryTask: ListenerTask
    private let pruneTask = ListenerTask()

    /// Creates the service on a pool; no connection is opened until ``start()``.
    public init(configuration: ServiceConfiguration, pool: PostgresPool, logger: Logger) {
        self.configuration = configuration
        metrics = MetricsRegistry()
        parts = ServiceParts(configuration: configuration, pool: pool, metrics: metrics, logger: logger)
        listenerTask = ListenerTask()
        sweeperTask = ListenerTask()
        deliveryTask = ListenerTask()
        collectGroupCommit()
        let screens = parts.screens.cache
        metrics.addCollector { screens.lookupLines() }
    }

    /// Batching of session writes (units per batch is what group commit saves: one fsync each) and
    /// of the reads of sessions the snapshot cache misses (one statement each batch).
    private func collectGroupCommit() {
        let appender = parts.sessions.appender
        let reader = parts.sessions.reader
        metrics.addCollector {
            let statistics = appender.statistics
            let reads = reader.statistics
            return [
                Metric.groupCommitBatches.sample(statistics.batches),
                Metric.groupCommitUnits.sample(statistics.units),
                Metric.groupCommitWaiting.sample(statistics.waiting),
                Metric.sessionReadBatches.sample(reads.batches),
                Metric.sessionReads.sample(reads.sessions),
            ]
        }
    }

    /// Subscribes to release notifications so every process drops a flow's live
    /// version as soon as any process releases another (LISTEN/NOTIFY).
    public func start() async throws {
        let stream = try await parts.pool.listen(channel: "parley_releases")
        let live = parts.versions.cache
        let logger = parts.logger
        listenerTask.set(
            Task {
                for await notification in stream {
                    if notification.isReconnect {
                        logger.info("release listener reconnected; dropping every cached live version")
                        live.invalidateAll()
                        continue
                    }
                    guard let payload = try? JSONParser.parse(notification.payload),
                        let flow = payload["flow"]?.stringValue, let channel = payload["channel"]?.stringValue
                    else { continue }
                    live.invalidate(flow: flow, channel: channel)
                }
            })
        try await startSessions()
        let dispatcher = try WebhookDispatcher(
            configuration: configuration, webhooks: parts.webhooks, sealing: parts.sessions.sealing, metrics: metrics,
            logger: parts.logger)
        metrics.addCollector { dispatcher.gaugeLines() }
        deliveryTask.set(Task { await dispatcher.run() })
    }

    /// Keeps cached session snapshots coherent across processes (every change NOTIFYs
    /// `parley_sessions` with the session's key and rev, a group-committed batch once for all
    /// its changes) and starts this process's sweeper. The notifications are handled on the
    /// listener's thread (a lock and a few dictionary updates; live reads start tasks of their
    /// own): every answer's notification comes back here, and a stream and a task hop per
    /// notification cost more than the invalidation itself.
    private func startSessions() async throws {
        let snapshots = parts.snapshots
        let followers = parts.followers
        let ledger = parts.ledger
        let load: SessionFollowers.Loader = { id in await ledger.followedSnapshot(id) }
        metrics.addCollector { followers.gaugeLines() }
        // The payload is read where libpq holds it: no `String` of it per notification.
        let handler: PostgresListener.PayloadHandler = { notification in
            guard case .bytes(let payload) = notification else {
                snapshots.invalidateAll()
                followers.resync(load: load)
                return
            }
            snapshots.invalidate { note in SessionChangeNotice.forEachKey(in: payload, note) }
            // Live streams of these sessions in this process read each new snapshot once (the hex
            // keys are only made into strings when some session is followed).
            guard followers.followsAny else { return }
            for (keyHex, rev) in SessionChangeNotice.changes(payload) {
                followers.changed(keyHex: keyHex, rev: rev, load: load)
            }
        }
        let subscription = try await parts.pool.listen(channel: "parley_sessions", payloadHandler: handler)
        sessionSubscription.withLock { old in
            old?.cancel()
            old = subscription
        }
        let sweeper = SessionSweeper(
            configuration: configuration, sessions: parts.sessions, metrics: metrics, logger: parts.logger)
        sweeperTask.set(Task { await sweeper.run() })
        let schedule = PruneSchedule(
            configuration: configuration, pool: parts.pool, metrics: metrics, logger: parts.logger)
        pruneTask.set(Task { await schedule.run() })
    }

    /// Stops listening, sweeping, pruning and delivering.
    public func shutdown() {
        listenerTask.cancel()
        sessionSubscription.withLock { $0?.cancel() }
        sweeperTask.cancel()
        deliveryTask.cancel()
        pruneTask.cancel()
    }

    /// The router with every v1 route, each behind metrics and authentication.
    public func makeRouter() -> Router { makeRouters(count: 1)[0] }

    /// `count` routers with every v1 route, one for each event loop: their closures (each
    /// route's handler and middleware chain) are their own, so the reference counts a request
    /// takes on them stay on its loop's core. What the routes count and whom they call (each
    /// route's metrics, the handlers' stores and caches) is made once and shared.
    public func makeRouters(count: Int) -> [Router] {
        let handlers = parts.handlers(openAPI: OpenAPIDocument.bytes(version: configuration.serviceVersion))
        let authentication = AuthenticationMiddleware(
            authenticator: Authenticator(access: parts.access, clientKey: configuration.clientKey))
        let routes = ServiceRoute.all.map { route in
            let routeMetrics = RouteMetrics(route: route)
            metrics.addCollector { routeMetrics.lines() }
            return (route, routeMetrics)
        }
        return (0..<max(1, count)).map { _ in
            var router = Router()
            for (route, routeMetrics) in routes {
                let (handler, maxBody) = endpoint(route, handlers)
                let endpoint = ServiceEndpoint(
                    route: route,
                    middleware: [MetricsMiddleware(metrics: routeMetrics), authentication.forRoute(route)],
                    handler: handler, maxBodyBytes: maxBody, runsOnLoop: Self.runsOnLoop(route.operation),
                    handlerRendersErrors: true)
                router.add(route.method, route.path, route: endpoint.fixedRoute)
            }
            return router
        }
    }
}
