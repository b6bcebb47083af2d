import Foundation
import ParleyCore
import ParleyCrypto
import ParleyHTTP

extension Handlers {
    /// `POST /v1/sessions` `{"flow", "channel"?}`: pins the channel's live version and the
    /// caller's `Parley-Core`, and answers 201 with the first snapshot.
    func startSession(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let body = try JSONBody.object(request)
        guard case .string(let flowId) = body["flow"], Self.isIdentifier(flowId) else {
            throw ServiceProblem.malformedBody(
                "\"flow\" is required: the id of the flow to start (1 to \(Self.maximumIdentifierLength) characters)")
        }
        let channel: String
        switch body["channel"] {
        case nil, .null: channel = context.configuration.defaultChannel
        case .string(let name): channel = try checkedChannel(name)
        case .some(let other):
            throw ServiceProblem.malformedBody("\"channel\" must be a string, found \(other.kindDescription)")
        }
        let core = try context.cores.resolve(request)
        // The new session's id is its rollout subject: a stable bucket, fixed for its whole walk.
        let id = SessionID.generate()
        guard let live = try await context.liveRelease(flow: flowId, channel: channel),
            let version = live.version(for: id.text)
        else {
            throw ServiceProblem.notFound("flow \"\(flowId)\" has no live version on channel \"\(channel)\"")
        }
        let record = SessionRecord(
            id: id, flowId: flowId, version: version.version, channel: channel,
            core: core.core.description, locale: context.locales.locale(request, version), rev: 1, status: .active,
            step: version.flow.start, path: [],
            values: Answers(), forward: [], messages: .array([]), expiresAt: sessionExpiry())
        try await context.sessions.create(record)
        context.metrics.increment(
            "parley_sessions_started_total", labels: [("flow", flowId), ("version", String(version.version))])
        let snapshot = try snapshot(of: record, in: version)
        var headers = snapshot.headers
        headers.set("Location", "/v1/sessions/\(record.id.text)")
        return .json(snapshot.body, status: .created, headers: headers)
    }

    /// `GET /v1/sessions/{id}` from memory, on the event loop, when the snapshot is cached.
    func sessionInline(_ request: HTTPRequest, _ requestContext: RequestContext) throws -> HTTPResponse? {
        // The cache is keyed by the id's text: no hashing on the hot path.
        guard let text = requestContext.parameters["id"], let snapshot = context.snapshots.snapshot(text),
            snapshot.status != .active || Date().timeIntervalSince1970 < snapshot.expiresAt
        else { return nil }
        return Self.conditional(snapshot, request)
    }

    /// `GET /v1/sessions/{id}`: the snapshot; `ETag: "<rev>"` and 304 on a match; 410 when expired.
    func getSession(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let record = try await loadSession(try SessionRequest.id(requestContext))
        return Self.conditional(try await snapshot(of: record), request)
    }

    /// 304 when `If-None-Match` names the snapshot's rev, else the snapshot.
    static func conditional(_ snapshot: SessionSnapshot, _ request: HTTPRequest) -> HTTPResponse {
        if let condition = request.headers["If-None-Match"], EntityTag.matches(condition, snapshot.etag) {
            return HTTPResponse(status: .notModified, headers: snapshot.headers)
        }
        return snapshot.response()
    }

    /// The stored session: 404 when unknown (or malformed), 410 when expired or erased.
    func loadSession(_ id: SessionID) async throws -> SessionRecord {
        guard let record = try await context.sessions.load(id) else {
            throw ServiceProblem.notFound("no such session")
        }
        if record.status == .erased { throw ServiceProblem.sessionErased() }
        if record.isExpired(now: Date().timeIntervalSince1970) {
            throw ServiceProblem.sessionExpired()
        }
        return record
    }

    /// The snapshot of a stored session, read through the version cache.
    func snapshot(of record: SessionRecord) async throws -> SessionSnapshot {
        try snapshot(of: record, in: try await pinnedVersion(record))
    }

    /// The session's pinned flow version (always present: a foreign key holds it).
    func pinnedVersion(_ record: SessionRecord) async throws -> StoredFlowVersion {
        guard let version = try await context.version(flow: record.flowId, number: record.version) else {
            throw ServiceProblem.notFound("version \(record.version) of flow \"\(record.flowId)\" is gone")
        }
        return version
    }

    /// The snapshot of `record`, its screen gated for the session's own core; cached.
    func snapshot(of record: SessionRecord, in version: StoredFlowVersion) throws(HTTPError) -> SessionSnapshot {
        let core = try context.cores.resolve(header: record.core)
        guard let screen = context.screens.render(version, step: record.step, for: core, locale: record.locale) else {
            throw ServiceProblem.notFound(
                "version \(record.version) of flow \"\(record.flowId)\" has no step \"\(record.step)\"")
        }
        let snapshot = SessionSnapshot(record, screen: screen)
        // Only snapshots the API may serve are cached: an expired or erased session answers 410.
        if record.status == .active || record.status == .completed {
            context.snapshots.store(snapshot, id: record.id.text, keyHex: Hex.encode(record.id.key))
        }
        return snapshot
    }

    /// When a session touched now expires: now plus the idle TTL.
    func sessionExpiry() -> Double {
        Date().timeIntervalSince1970 + context.configuration.sessionIdleSeconds
    }
}
