import Foundation
import Logging
import ParleyCore
import ParleyCrypto
import ParleyHTTP

/// The walk through a flow (DESIGN.md "Sessions"): start, read, answer, go back.
///
/// A class: each route's handler is a method reference that captures it, and a struct of this
/// size (the configuration, the ledger and its stores) was copied field by field into every
/// answer's call (~1,000 instructions) where a reference is retained once.
final class SessionHandlers: ServiceHandler {
    let configuration: ServiceConfiguration
    let ledger: SessionLedger
    /// The live versions a new session is pinned to.
    let versions: LiveVersions
    let cores: CoreCapabilities
    let locales: LocaleChoices
    let metrics: MetricsRegistry
    /// The answers' `parley_session_steps_total` series, found without the registry's lock.
    let steps: StepCounters
    let logger: Logger

    init(
        configuration: ServiceConfiguration, ledger: SessionLedger, versions: LiveVersions, cores: CoreCapabilities,
        locales: LocaleChoices, metrics: MetricsRegistry, logger: Logger
    ) {
        self.configuration = configuration
        self.ledger = ledger
        self.versions = versions
        self.cores = cores
        self.locales = locales
        self.metrics = metrics
        steps = StepCounters(metrics: metrics)
        self.logger = logger
    }
}

extension SessionHandlers {
    /// `POST /v1/sessions` `{"flow", "channel"?}`: pins the channel's live version and the
    /// caller's `Parley-Core`, and answers 201 with the first snapshot.
    func startSession(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let body = try StartRequest.read(request)
        guard case .string(let flowId) = body.flow, RequestInput.isIdentifier(flowId) else {
            throw ServiceProblem.malformedBody(
                "\"flow\" is required: the id of the flow to start (1 to \(RequestInput.maximumIdentifierLength) characters)"
            )
        }
        let channel: String
        switch body.channel {
        case nil, .null: channel = configuration.defaultChannel
        case .string(let name): channel = try configuration.checkedChannel(name)
        case .some(let other):
            throw ServiceProblem.malformedBody("\"channel\" must be a string, found \(other.kindDescription)")
        }
        let core = try cores.resolve(request)
        // Whole milliseconds: the row's start, the log's month and the id's time (which leads the
        // key) come from the same instant.
        let startedAt = (Date().timeIntervalSince1970 * 1000).rounded(.down) / 1000
        // The new session's id is its rollout subject: a stable bucket, fixed for its whole walk.
        let id = SessionID.generate(startedAt: startedAt)
        guard let live = try await versions.liveRelease(flow: flowId, channel: channel),
            let version = live.version(for: id.text)
        else {
            throw ServiceProblem.notFound("flow \"\(flowId)\" has no live version on channel \"\(channel)\"")
        }
        let record = SessionRecord(
            id: id, flowId: flowId, version: version.version, channel: channel,
            core: core.core.description, locale: locales.locale(request, version), rev: 1, status: .active,
            step: version.flow.start, path: [],
            values: Answers(), forward: [], messages: .array([]), expiresAt: ledger.sessionExpiry(),
            month: SessionStore.month(of: startedAt), context: Answers())
        try await ledger.sessions.create(record, startedAt: startedAt)
        metrics.increment(
            .sessionsStarted, labels: [("flow", flowId), ("version", String(version.version))])
        let snapshot = try ledger.snapshot(of: record, in: version, keepingSnapshot: false)
        var headers = snapshot.headers
        headers.set("Location", "/v1/sessions/\(record.id.text)")
        return .json(snapshot.body, status: .created, headers: headers)
    }

    /// `GET /v1/sessions/{id}`: the snapshot; `ETag: "<rev>"` and 304 on a match; 410 when expired.
    /// From memory on the event loop when the snapshot is cached, else read from the database.
    func getSession(_ request: HTTPRequest, _ requestContext: RequestContext) throws -> HTTPReply {
        // The cache is keyed by the id's text: no hashing on the hot path.
        if let text = requestContext.parameters["id"], let snapshot = ledger.cachedSnapshot(text),
            snapshot.status != .active || Date().timeIntervalSince1970 < snapshot.expiresAt
        {
            return .now(Self.conditional(snapshot, request))
        }
        let id = try SessionRequest.id(requestContext)
        return .offLoop { [ledger] in
            Self.conditional(try await ledger.storedSnapshot(id), request)
        }
    }

    /// 304 when `If-None-Match` names the snapshot's rev, else the snapshot.
    static func conditional(_ snapshot: SessionSnapshot, _ request: HTTPRequest) -> HTTPResponse {
        if let condition = request.headers["If-None-Match"], EntityTag.matches(condition, snapshot.etag) {
            return HTTPResponse(status: .notModified, headers: snapshot.headers)
        }
        return snapshot.response()
    }
}
