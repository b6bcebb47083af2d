import Foundation
import ParleyCore
import ParleyCrypto
import ParleyHTTP

/// Live sessions (DESIGN.md "Live sessions"): following a session's snapshots as events, and
/// agents speaking into it or moving it.
struct LiveHandlers: ServiceHandler {
    let configuration: ServiceConfiguration
    let ledger: SessionLedger
    let followers: SessionFollowers
    let metrics: MetricsRegistry
}

extension LiveHandlers {
    /// `GET /v1/sessions/{id}/events` (DESIGN.md "Live sessions"): a `text/event-stream` of
    /// `snapshot` events, `id: <rev>`. The current snapshot comes first unless `Last-Event-ID`
    /// already names its rev; every later change follows, from whichever process made it. The
    /// stream of a completed session ends after its final snapshot.
    func followSession(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try SessionRequest.id(requestContext)
        let lastEventId = try Self.lastEventId(request)
        let keyHex = id.key.hex
        // Follow first, then read: a change committed in between is notified and not missed.
        guard let stream = followers.follow(id: id.text, keyHex: keyHex, lastEventId: lastEventId) else {
            throw ServiceProblem.make(
                .serviceUnavailable, "too-many-streams", "Too many open event streams",
                "This server holds its maximum of \(configuration.liveMaxStreams) session event streams; "
                    + "retry later or on another server.", headers: ["Retry-After": "5"])
        }
        do {
            try await offerCurrent(id, keyHex: keyHex)
        } catch {
            stream.cancel()
            throw error
        }
        return .streaming(
            stream, contentType: "text/event-stream",
            headers: ["Cache-Control": "no-store", "X-Accel-Buffering": "no"])
    }

    /// Offers the session's current snapshot to its streams (a function of its own: inlined into
    /// `followSession`, the release compiler crashed splitting that coroutine).
    /// Like GET /v1/sessions/{id}: from memory when the newest snapshot is cached.
    private func offerCurrent(_ id: SessionID, keyHex: String) async throws {
        if let cached = ledger.cachedSnapshot(id.text),
            cached.status != .active || Date().timeIntervalSince1970 < cached.expiresAt
        {
            followers.offer(cached, keyHex: keyHex)
            return
        }
        followers.offer(try await ledger.storedSnapshot(id), keyHex: keyHex)
    }

    /// `Last-Event-ID` (WHATWG HTML §9.2.4): the rev of the last snapshot the client saw; 0 when absent.
    static func lastEventId(_ request: HTTPRequest) throws(HTTPError) -> Int {
        guard let text = request.headers["Last-Event-ID"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty
        else { return 0 }
        guard let rev = Int(text), rev >= 0 else {
            throw ServiceProblem.badParameter("Last-Event-ID must be the rev of a snapshot (a non-negative integer)")
        }
        return rev
    }
}
