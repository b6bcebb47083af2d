import ParleyCore
import ParleyHTTP

/// The snapshot (DESIGN.md "Sessions"): the one shape every session response carries,
/// always the full state, never a diff.
struct SessionSnapshot: Sendable {
    /// The canonical JSON body.
    var body: [UInt8] {
        guard !screen.isEmpty else { return bytes }
        var body: [UInt8] = []
        body.reserveCapacity(bodyCount)
        bytes.withUnsafeBufferPointer { outside in
            body.append(contentsOf: UnsafeBufferPointer(rebasing: outside[..<screenStart]))
            body.append(contentsOf: screen)
            body.append(contentsOf: UnsafeBufferPointer(rebasing: outside[screenStart...]))
        }
        return body
    }

    /// The body without its screen (its bytes go in at `screenStart`), as built and as the
    /// snapshot cache keeps it. The screen is most of a snapshot (1,039 of 1,240 bytes on
    /// passport-intake's first step) and the same for every session at that step: held once, the
    /// cache keeps about a kilobyte less per session; and written without it, an answer's
    /// snapshot is copied once, into its response, instead of once more for the cache.
    private var bytes: [UInt8]
    /// The screen cache's own array of the screen's bytes (shared, never copied).
    private let screen: [UInt8]
    /// Where `screen` goes in the body.
    private let screenStart: Int
    /// The body's length, screen included.
    let bodyCount: Int
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
        // bytes are put in place when the body is read, never parsed and re-encoded, and nothing
        // else is built first.
        let pathJSON = record.pathJSON ?? SessionRecord.pathJSON(record.path)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(320 + pathJSON.count + record.flowId.utf8.count + record.step.utf8.count)
        Self.append(#"{"expiresAt":""#, to: &bytes)
        MillisecondTimestamp.write(record.expiresAt, into: &bytes)
        Self.append(#"","flow":"#, to: &bytes)
        CanonicalJSON.writeString(record.flowId, into: &bytes)
        Self.append(#","messages":"#, to: &bytes)
        CanonicalJSON.write(record.messages, into: &bytes)
        Self.append(#","path":["#, to: &bytes)
        bytes.append(contentsOf: pathJSON)
        Self.append(#"],"rev":"#, to: &bytes)
        Self.appendDigits(record.rev, to: &bytes)
        Self.append(#","screen":"#, to: &bytes)
        screenStart = bytes.count
        self.screen = screen.body
        Self.append(#","session":"#, to: &bytes)
        CanonicalJSON.writeString(record.id.text, into: &bytes)
        Self.append(#","status":"#, to: &bytes)
        Self.append(Self.statusJSON(record.status), to: &bytes)
        Self.append(#","step":"#, to: &bytes)
        CanonicalJSON.writeString(record.step, into: &bytes)
        Self.append(#","values":"#, to: &bytes)
        record.values.writeCanonicalJSON(into: &bytes)
        Self.append(#","version":"#, to: &bytes)
        Self.appendDigits(record.version, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        bodyCount = bytes.count + screen.body.count
        self.bytes = bytes
        etag = Self.etag(record.rev)
        locale = record.locale
        storedHeaders = Self.headers(etag: etag, locale: record.locale)
        rev = record.rev
        status = record.status
        expiresAt = record.expiresAt
    }

    /// `"<rev>"`, written in place: a rev's digits and quotes fit a small string, which string
    /// interpolation built through a growing buffer and `Int.description`.
    private static func etag(_ rev: Int) -> String {
        guard rev >= 0 else { return "\"\(rev)\"" }
        var digits = 1
        var rest = rev
        while rest >= 10 {
            digits += 1
            rest /= 10
        }
        return String(unsafeUninitializedCapacity: digits + 2) { buffer in
            buffer[0] = UInt8(ascii: "\"")
            buffer[digits + 1] = UInt8(ascii: "\"")
            var value = rev
            for index in stride(from: digits, through: 1, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
            return digits + 2
        }
    }

    /// Appends a literal's bytes at once: through `String.UTF8View`, each of a snapshot's dozen
    /// literals took the generic sequence append (~170 instructions).
    private static func append(_ literal: StaticString, to bytes: inout [UInt8]) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A status as its canonical JSON string: plain identifiers, written without the escape check.
    private static func statusJSON(_ status: SessionStatus) -> StaticString {
        switch status {
        case .active: #""active""#
        case .completed: #""completed""#
        case .expired: #""expired""#
        case .erased: #""erased""#
        }
    }

    /// Appends a non-negative number's decimal digits without a `String` in between.
    private static func appendDigits(_ value: Int, to bytes: inout [UInt8]) {
        guard value >= 0 else { return bytes.append(contentsOf: String(value).utf8) }
        var divisor = 1
        while value / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// The marker of an erased session for its event streams, which end without showing it.
    init(erased record: SessionRecord) {
        bytes = []
        screen = []
        screenStart = 0
        bodyCount = 0
        etag = Self.etag(record.rev)
        locale = nil
        storedHeaders = [:]
        rev = record.rev
        status = .erased
        expiresAt = record.expiresAt
    }

    /// What the snapshot cache keeps: the same snapshot without its response headers (their
    /// bytes are shared; the body is held without its screen already), and its bytes in an array
    /// of their own size when the one they were written into has much room left.
    func compacted() -> SessionSnapshot {
        let slack = bytes.capacity - bytes.count
        guard storedHeaders != nil || slack > Self.slackKept else { return self }
        var compact = self
        compact.storedHeaders = nil
        if slack > Self.slackKept {
            compact.bytes = bytes.withUnsafeBufferPointer { written in
                [UInt8](unsafeUninitializedCapacity: written.count) { copy, count in
                    count = copy.initialize(fromContentsOf: written)
                }
            }
        }
        return compact
    }

    /// Room an array may keep unused in the cache. A body is written into room reserved for the
    /// longest it is likely to be (so it is never grown and copied while written); most are a
    /// few hundred bytes, about 140 short of that room, and 20,000 cached sessions kept ~2.8 MB
    /// of it (issue 27: RSS). Copying one to its size costs an allocation and ~250 bytes moved
    /// an answer.
    private static let slackKept = 32

    /// The response's headers: the rev as a strong ETag, never stored by shared caches (the URL
    /// is a bearer capability). Built with the snapshot for the response that carries it first;
    /// the copy the snapshot cache keeps builds them when served (issue 27: RSS), since holding
    /// them took an array of their own per cached session, ~130 bytes of its ~1.3 KB.
    var headers: HTTPHeaders { storedHeaders ?? Self.headers(etag: etag, locale: locale) }
    private var storedHeaders: HTTPHeaders?
    /// The session's locale (its `Content-Language`).
    private let locale: String?

    private static func headers(etag: String, locale: String?) -> HTTPHeaders {
        var headers = sharedHeaders
        // The ETag, the language and the request id that every response is tagged with after.
        headers.reserveCapacity(3)
        headers.add("ETag", etag)
        if let locale { headers.add("Content-Language", locale) }
        return headers
    }

    /// The fields every snapshot response carries, encoded once and shared by every snapshot
    /// (``HTTPHeaders/sharingEncoding()``): a snapshot adds its ETag (and language) after them,
    /// and the response writes their bytes with one copy instead of encoding them per answer.
    private static let sharedHeaders: HTTPHeaders = HTTPHeaders([
        HTTPField(name: "Cache-Control", value: "private, no-cache"),
        HTTPField(name: "Content-Type", value: "application/json"),
    ]).sharingEncoding()

    /// The body with the answer response's `"cleared"` member added (DESIGN.md "Expressions"):
    /// canonical JSON sorts it first, so it goes right after the opening brace.
    func body(cleared: [String]) -> [UInt8] {
        guard bytes.first == UInt8(ascii: "{") else { return body }
        // One allocation of the full size; the field ids written as canonical JSON strings (what
        // encoding them as a JSON array writes), the bytes around the screen and the screen
        // copied at once each.
        var body: [UInt8] = []
        body.reserveCapacity(bodyCount + 16 + cleared.reduce(0) { $0 + $1.utf8.count + 3 })
        Self.append(#"{"cleared":["#, to: &body)
        for (position, field) in cleared.enumerated() {
            if position > 0 { body.append(UInt8(ascii: ",")) }
            CanonicalJSON.writeString(field, into: &body)
        }
        Self.append(#"],"#, to: &body)
        bytes.withUnsafeBufferPointer { outside in
            body.append(contentsOf: UnsafeBufferPointer(rebasing: outside[1..<screenStart]))
            body.append(contentsOf: screen)
            body.append(contentsOf: UnsafeBufferPointer(rebasing: outside[screenStart...]))
        }
        return body
    }

    /// The 200 response.
    func response(status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: body)
    }
}
