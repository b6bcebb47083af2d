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
        // Canonical JSON, written member by member in its sorted key order: the screen's ready
        // bytes are copied in, never parsed and re-encoded, and nothing else is built first.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + screen.body.count + 24 * record.path.count)
        bytes.append(contentsOf: #"{"expiresAt":""#.utf8)
        MillisecondTimestamp.write(record.expiresAt, into: &bytes)
        bytes.append(contentsOf: #"","flow":"#.utf8)
        CanonicalJSON.writeString(record.flowId, into: &bytes)
        bytes.append(contentsOf: #","messages":"#.utf8)
        CanonicalJSON.write(record.messages, into: &bytes)
        bytes.append(contentsOf: #","path":["#.utf8)
        bytes.append(contentsOf: record.pathJSON ?? SessionRecord.pathJSON(record.path))
        bytes.append(contentsOf: #"],"rev":"#.utf8)
        bytes.append(contentsOf: String(record.rev).utf8)
        bytes.append(contentsOf: #","screen":"#.utf8)
        bytes.append(contentsOf: screen.body)
        bytes.append(contentsOf: #","session":"#.utf8)
        CanonicalJSON.writeString(record.id.text, into: &bytes)
        bytes.append(contentsOf: #","status":"#.utf8)
        CanonicalJSON.writeString(record.status.rawValue, into: &bytes)
        bytes.append(contentsOf: #","step":"#.utf8)
        CanonicalJSON.writeString(record.step, into: &bytes)
        bytes.append(contentsOf: #","values":"#.utf8)
        record.values.writeCanonicalJSON(into: &bytes)
        bytes.append(contentsOf: #","version":"#.utf8)
        bytes.append(contentsOf: String(record.version).utf8)
        bytes.append(UInt8(ascii: "}"))
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
