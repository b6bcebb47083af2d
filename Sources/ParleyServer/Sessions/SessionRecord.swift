import Foundation
import ParleyCore

/// A session's current state, folded from its log (``SessionFold``): everything a snapshot is built from.
struct SessionRecord: Sendable {
    let id: SessionID
    let flowId: String
    /// The pinned flow version (never changed by later releases).
    let version: Int
    let channel: String
    /// The `Parley-Core` fixed at start; every screen of the session is gated for it.
    let core: String
    /// The locale fixed at start from `Accept-Language` (nil: a flow in one language): every
    /// screen and 422 message of the session is in it.
    let locale: String?
    let rev: Int
    let status: SessionStatus
    /// The current step (for a completed session, the terminal step reached).
    let step: String
    /// Confirmed steps so far, in order.
    let path: SessionPath
    /// Prefill for the current step.
    let values: Answers
    /// Steps undone by going back, nearest first.
    let forward: [PathEntry]
    /// Live messages (DESIGN.md "Live sessions"), as stored.
    let messages: JSONValue
    /// Seconds since 1970 after which an active session is expired.
    let expiresAt: Double
    /// The UTC month the session started (yyyymm): the partition key of its log rows, fixed for
    /// its whole life (migration 0009).
    var month: Int
    /// Every answer of `path` merged as replay reads them (``PathEntry/merged(_:in:)``), kept with
    /// the cached state so an answer extends it instead of recomputing it; nil when not known.
    var context: Answers? = nil
    /// The step ids of `path` as the snapshot lists them (`"a","b"`, canonical JSON strings without
    /// the brackets), kept with the cached state so an answer appends one instead of writing them
    /// all again; nil when not known (written from `path` then).
    var pathJSON: [UInt8]? = nil

    /// Whether the session can no longer be used: marked expired, or active and idle past its TTL
    /// (the sweeper marks it soon; callers answer 410 either way).
    func isExpired(now: Double) -> Bool {
        status == .expired || (status == .active && now >= expiresAt)
    }

    /// The same session after a change: `rev + 1` and the new state.
    func advanced(
        status: SessionStatus? = nil, step: String, path: SessionPath, values: Answers, forward: [PathEntry],
        messages: JSONValue? = nil, expiresAt: Double, context: Answers? = nil
    ) -> SessionRecord {
        SessionRecord(
            id: id, flowId: flowId, version: version, channel: channel, core: core, locale: locale, rev: rev + 1,
            status: status ?? self.status, step: step, path: path, values: values, forward: forward,
            messages: messages ?? self.messages, expiresAt: expiresAt, month: month, context: context)
    }

    /// ``pathJSON`` of this path with `step` confirmed after it.
    func pathJSON(appending step: String) -> [UInt8] {
        var bytes = pathJSON ?? Self.pathJSON(path)
        bytes.reserveCapacity(bytes.count + step.utf8.count + 3)
        if !bytes.isEmpty { bytes.append(UInt8(ascii: ",")) }
        CanonicalJSON.writeString(step, into: &bytes)
        return bytes
    }

    /// The step ids of `path` as ``pathJSON`` holds them.
    static func pathJSON(_ path: SessionPath) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16 * path.count)
        for (position, entry) in path.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            CanonicalJSON.writeString(entry.step, into: &bytes)
        }
        return bytes
    }

    /// `expiresAt` as RFC 3339 UTC with millisecond precision.
    var expiresAtText: String { MillisecondTimestamp.text(expiresAt) }
}
