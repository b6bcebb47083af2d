import ParleyCore
import ParleyHTTP

/// The snapshot (DESIGN.md "Sessions"): the one shape every session response carries,
/// always the full state, never a diff.
struct SessionSnapshot: Sendable {
    /// The canonical JSON body.
    let body: [UInt8]
    /// `"<rev>"`: what `If-None-Match` is compared with.
    let etag: String
    let rev: Int
    let status: SessionStatus
    /// Seconds since 1970 after which an active session is expired.
    let expiresAt: Double

    /// Builds the snapshot of `record` around its current step's gated screen (the exact bytes
    /// `GET /v1/screens` serves for the session's core).
    init(_ record: SessionRecord, screen: ScreenCache.Entry) {
        // Canonical JSON sorts keys; the screen's ready bytes go between the members that sort
        // before "screen" and those after it, so they are never parsed and re-encoded.
        var before = JSONObject()
        before["expiresAt"] = .string(record.expiresAtText)
        before["flow"] = .string(record.flowId)
        before["messages"] = record.messages
        before["path"] = .array(record.path.map { .string($0.step) })
        before["rev"] = .number(JSONNumber(record.rev))
        var after = JSONObject()
        after["session"] = .string(record.id.text)
        after["status"] = .string(record.status.rawValue)
        after["step"] = .string(record.step)
        after["values"] = record.values.json
        after["version"] = .number(JSONNumber(record.version))
        var bytes = CanonicalJSON.encode(.object(before))
        bytes.removeLast()
        let rest = CanonicalJSON.encode(.object(after))
        // Appended in place into one buffer: the screen is most of the body, copied once.
        bytes.reserveCapacity(bytes.count + 10 + screen.body.count + rest.count)
        bytes.append(contentsOf: #","screen":"#.utf8)
        bytes.append(contentsOf: screen.body)
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: rest.dropFirst())
        body = bytes
        etag = "\"\(record.rev)\""
        var headers: HTTPHeaders = [
            "ETag": etag, "Cache-Control": "private, no-cache", "Content-Type": "application/json",
        ]
        if let locale = record.locale { headers.set("Content-Language", locale) }
        self.headers = headers
        rev = record.rev
        status = record.status
        expiresAt = record.expiresAt
    }

    /// The marker of an erased session for its event streams, which end without showing it.
    init(erased record: SessionRecord) {
        body = []
        etag = "\"\(record.rev)\""
        headers = [:]
        rev = record.rev
        status = .erased
        expiresAt = record.expiresAt
    }

    /// Headers of every snapshot response, built once: the rev as a strong ETag, never stored by
    /// shared caches (the URL is a bearer capability).
    let headers: HTTPHeaders

    /// A snapshot body with the answer response's `"cleared"` member added (DESIGN.md
    /// "Expressions"): canonical JSON sorts it first, so it goes right after the opening brace.
    static func body(_ snapshot: [UInt8], cleared: [String]) -> [UInt8] {
        guard snapshot.first == UInt8(ascii: "{") else { return snapshot }
        var bytes = Array(#"{"cleared":"#.utf8)
        bytes += CanonicalJSON.encode(.array(cleared.map(JSONValue.string)))
        bytes.append(UInt8(ascii: ","))
        bytes += snapshot.dropFirst()
        return bytes
    }

    /// The 200 response.
    func response(status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: body)
    }
}
