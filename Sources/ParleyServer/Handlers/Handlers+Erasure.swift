import ParleyCrypto
import ParleyHTTP

extension Handlers {
    /// `DELETE /v1/sessions/{id}` (`admin`): erases the session's answers everywhere (issue 18);
    /// 204, then every call on the session answers 410 `session-erased`. Erasing twice is 410.
    func eraseSession(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try SessionRequest.id(requestContext)
        switch try await context.sessions.erase(id) {
        case .unknown: throw ServiceProblem.notFound("no such session")
        case .alreadyErased: throw ServiceProblem.sessionErased()
        case .erased(let rev):
            // Other processes drop their copy when the row's notification arrives; this one now.
            context.snapshots.invalidate(keyHex: Hex.encode(id.key), rev: rev)
            context.metrics.increment("parley_sessions_erased_total")
            // The caller's name, never the session id (a bearer capability).
            context.logger.info("a session was erased by \(caller.name)")
            return HTTPResponse(status: .noContent)
        }
    }
}
