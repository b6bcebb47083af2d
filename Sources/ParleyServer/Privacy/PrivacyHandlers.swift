import Logging
import ParleyHTTP

/// Erasure of a session's answers (issue 18).
struct PrivacyHandlers: ServiceHandler {
    let sessions: SessionStore
    /// This process's copy is dropped at once; others drop theirs on the row's notification.
    let snapshots: SnapshotCache
    let metrics: MetricsRegistry
    let logger: Logger
}

extension PrivacyHandlers {
    /// `DELETE /v1/sessions/{id}` (`admin`): erases the session's answers everywhere (issue 18);
    /// 204, then every call on the session answers 410 `session-erased`. Erasing twice is 410.
    func eraseSession(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try SessionRequest.id(requestContext)
        switch try await sessions.erase(id) {
        case .unknown: throw ServiceProblem.notFound("no such session")
        case .alreadyErased: throw ServiceProblem.sessionErased()
        case .erased(let rev):
            // Other processes drop their copy when the row's notification arrives; this one now.
            snapshots.invalidate(key: id.key, rev: rev)
            metrics.increment(.sessionsErased)
            // The caller's name, never the session id (a bearer capability).
            logger.info("a session was erased by \(caller.name)")
            return HTTPResponse(status: .noContent)
        }
    }
}
