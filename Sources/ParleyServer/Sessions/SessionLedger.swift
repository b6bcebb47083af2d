import Foundation
import Logging
import ParleyCore
import ParleyHTTP

/// Reads sessions through the snapshot cache and commits their changes (DESIGN.md "Sessions"):
/// what the session, live and privacy routes share, so each holds this and not the stores behind it.
struct SessionLedger: Sendable {
    let configuration: ServiceConfiguration
    /// The sessions in the database.
    let sessions: SessionStore
    /// This process's newest snapshots, kept coherent by the `parley_sessions` listener.
    let snapshots: SnapshotCache
    /// The versions sessions are pinned to.
    let versions: LiveVersions
    let screens: ScreenRenderer
    let cores: CoreCapabilities
    let logger: Logger

    /// The stored session, folded from its log: 404 when unknown (or malformed), 410 when
    /// expired or erased.
    func loadSession(_ id: SessionID) async throws -> SessionRecord {
        guard let record = try await readSession(id) else {
            throw ServiceProblem.notFound("no such session")
        }
        if record.status == .erased { throw ServiceProblem.sessionErased() }
        if record.isExpired(now: Date().timeIntervalSince1970) {
            throw ServiceProblem.sessionExpired()
        }
        return record
    }

    /// The stored session, marked with the snapshot cache's epoch taken before the read (so the
    /// cache refuses it if the listener reconnected meanwhile); nil when unknown.
    func readSession(_ id: SessionID) async throws -> SessionRecord? {
        let epoch = snapshots.epoch
        guard var record = try await sessions.load(id) else { return nil }
        record.cacheEpoch = epoch
        return record
    }

    /// The session's current state and its pinned version for a change the client makes at
    /// `clientRev` (issue 27): from the snapshot cache, without a database read, when it holds a
    /// rev at least the client's (a cached rev is never newer than the stored one, so a lower
    /// client rev is truly stale); else folded from the stored log, and cached. 404, 410 as
    /// ``loadSession(_:)``.
    ///
    /// `caching: false` for a change that commits a new state right away (an answer, `back`):
    /// the state read is not rendered nor cached, since the commit caches the one after it. Its
    /// snapshot and the cache's store cost a cold answer ~26k instructions (issue 27), for a
    /// snapshot replaced before anyone could read it; a refused change renders it then.
    func current(_ id: SessionID, clientRev: Int?, caching: Bool = true) async throws
        -> (SessionRecord, StoredFlowVersion)
    {
        if let record = snapshots.record(id.text), record.rev >= clientRev ?? .max {
            if record.isExpired(now: Date().timeIntervalSince1970) { throw ServiceProblem.sessionExpired() }
            return (record, try await pinnedVersion(record))
        }
        var record = try await loadSession(id)
        let version = try await pinnedVersion(record)
        record.context = PathEntry.merged(record.path, in: version.flow)
        if caching { _ = try snapshot(of: record, in: version) }
        return (record, version)
    }

    /// ``current(_:clientRev:)`` when both the session's state and its pinned version are in
    /// memory: without a suspension point, so a cached answer's handler makes no async call
    /// (each one is two executor switches, and with the responders' task executor preference
    /// each switch reads the task's status records under a lock). Nil when either is not
    /// cached; 410 when the cached session expired.
    /// Takes the id's text: the cached state holds its ``SessionID`` (with the key) already.
    func cached(_ idText: String, clientRev: Int?) throws(HTTPError) -> (SessionRecord, StoredFlowVersion)? {
        guard let record = snapshots.record(idText), record.rev >= clientRev ?? .max,
            let version = versions.cache.version(flow: record.flowId, number: record.version)
        else { return nil }
        if record.isExpired(now: Date().timeIntervalSince1970) { throw ServiceProblem.sessionExpired() }
        return (record, version)
    }

    /// The merged answers of the session's path (what its current step is evaluated in).
    func context(_ record: SessionRecord, in version: StoredFlowVersion) -> Answers {
        record.context ?? PathEntry.merged(record.path, in: version.flow)
    }

    /// The snapshot of the stored session `id` (folded from its log, then cached): 404, 410 as
    /// ``loadSession(_:)``.
    ///
    /// One function for `GET /v1/sessions/{id}` and a stream's first offer, which both read a
    /// session that is not cached (see ``snapshot(of:)`` for why it is not inlined).
    @inline(never)
    func storedSnapshot(_ id: SessionID) async throws -> SessionSnapshot {
        let record = try await loadSession(id)
        return try await snapshot(of: record)
    }

    /// The snapshot of a stored session, read through the version cache.
    ///
    /// Never inlined: inlined with ``loadSession(_:)`` into an async caller (`LiveHandlers.offerCurrent`,
    /// `SessionHandlers.getSession`'s closure, ``storedSnapshot(_:)``), Swift 6.3.1's release build
    /// crashed splitting that caller (signal 11 in LLVM's `CoroSplit`,
    /// `emitSetAndGetSwiftErrorValueAround`, as in round 6 of issue 27) once ``SessionRecord``
    /// held a ``SessionPath``.
    @inline(never)
    func snapshot(of record: SessionRecord) async throws -> SessionSnapshot {
        try snapshot(of: record, in: try await pinnedVersion(record))
    }

    /// The session's pinned flow version (always present: a foreign key holds it).
    func pinnedVersion(_ record: SessionRecord) async throws -> StoredFlowVersion {
        guard let version = try await versions.version(flow: record.flowId, number: record.version) else {
            throw ServiceProblem.notFound("version \(record.version) of flow \"\(record.flowId)\" is gone")
        }
        return version
    }

    /// The snapshot of `record`, its screen gated for the session's own core; the state cached,
    /// with the snapshot unless `keepingSnapshot` is false (a start's response carries it, and
    /// most sessions are not read before their next change).
    func snapshot(of record: SessionRecord, in version: StoredFlowVersion, keepingSnapshot: Bool = true)
        throws(HTTPError) -> SessionSnapshot
    {
        var state = record
        // The path's pieces the next answer extends (the snapshot is written from them too).
        if state.pathJSON == nil { state.pathJSON = SessionRecord.pathJSON(record.path) }
        let snapshot = try snapshotBody(of: state, in: version)
        // Only snapshots the API may serve are cached: an expired or erased session answers 410.
        if record.status == .active || record.status == .completed {
            if state.context == nil { state.context = PathEntry.merged(record.path, in: version.flow) }
            if keepingSnapshot {
                snapshots.store(snapshot, record: state, id: record.id)
            } else {
                snapshots.store(state, bodyCount: snapshot.bodyCount, id: record.id)
            }
        }
        return snapshot
    }

    /// The snapshot of a cached session's newest known rev: the one a read rendered, else rendered
    /// now from the cached state (and kept for the next read) when its pinned version is cached
    /// too. Nil when the session is not cached (or cannot be rendered here): the caller reads it.
    /// Synchronous, so `GET` answers a cached session on the event loop.
    func cachedSnapshot(_ idText: String) -> SessionSnapshot? {
        guard let (snapshot, record) = snapshots.current(idText) else { return nil }
        if let snapshot { return snapshot }
        guard let version = versions.cache.version(flow: record.flowId, number: record.version),
            let rendered = try? snapshotBody(of: record, in: version)
        else { return nil }
        snapshots.store(rendered, record: record, id: record.id)
        return rendered
    }

    /// The snapshot of `record`, not cached: its step gated for the session's core and locale, with
    /// what depends only on the path's answers resolved for this session (DESIGN.md "Expressions":
    /// visibility and templates reading earlier steps reach every core as plain data).
    func snapshotBody(of record: SessionRecord, in version: StoredFlowVersion) throws(HTTPError) -> SessionSnapshot {
        let core = try cores.resolve(header: record.core)
        var screen: ScreenCache.Entry?
        if version.stepsResolvedPerSession.contains(record.step) {
            var flow = version.flow(in: record.locale)
            if let index = flow.steps.firstIndex(where: { $0.id.isScalarEqual(to: record.step) }) {
                // A core without the registry's `expression:template` resolves nothing live:
                // templates reading this screen are served as their fallback, and the gate decides
                // the rest by the same registry (DESIGN.md "Expressions", "Gating").
                let resolved = SnapshotResolver.resolve(
                    flow: flow, step: flow.steps[index], context: context(record, in: version),
                    liveExpressions: core.capabilities.resolvesTemplates)
                flow.steps[index].screen = resolved.screen
            }
            screen = screens.render(flow, of: version, step: record.step, for: core, locale: record.locale)
        } else {
            screen = screens.render(version, step: record.step, for: core, locale: record.locale)
        }
        guard let screen else {
            throw ServiceProblem.notFound(
                "version \(record.version) of flow \"\(record.flowId)\" has no step \"\(record.step)\"")
        }
        return SessionSnapshot(record, screen: screen)
    }

    /// When a session touched now expires: now plus the idle TTL, in whole milliseconds. The
    /// snapshot cache holds this value while the database keeps it in microseconds; a clock
    /// reading with sub-millisecond digits made a cached snapshot say `.880Z` where one folded
    /// from the database said `.881Z`. Whole milliseconds (the wire's precision) survive the
    /// round trip, so every replica serves the same bytes.
    func sessionExpiry() -> Double {
        ((Date().timeIntervalSince1970 + configuration.sessionIdleSeconds) * 1000).rounded() / 1000
    }

    /// The current snapshot of a followed session for its streams, whatever its status: from the
    /// cache when it holds the newest known rev, else read from the database. Nil when it cannot
    /// be read (logged; the next change is offered again).
    func followedSnapshot(_ text: String) async -> SessionSnapshot? {
        if let cached = cachedSnapshot(text) { return cached }
        do {
            guard let record = try await readSession(SessionID(text)) else { return nil }
            // A tombstone: its streams end without it (`SessionFollowers.offer`).
            if record.status == .erased { return SessionSnapshot(erased: record) }
            return try await snapshot(of: record)
        } catch {
            // Never the session id: it is a bearer capability.
            logger.warning("could not read a followed session's snapshot", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
