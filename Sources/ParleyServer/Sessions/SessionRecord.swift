import Foundation
import ParleyCore

/// A session's current state, folded from its log (``SessionFold``): everything a snapshot is built from.
///
/// Its fields live in one immutable box, so a copy is one retain (issue 27): an answer copies the
/// state about ten times (out of the snapshot cache, into the change, the new snapshot and the
/// cache again), and as a struct of seventeen fields each copy retained a dozen references and
/// each destroy released them (~8.6k instructions an answer). The rare setters (a state folded from
/// the database gets its merged answers and path pieces once) build a new box.
struct SessionRecord: Sendable {
    /// The state's values, as the box holds them.
    private struct Fields: Sendable {
        var id: SessionID
        var flowId: String
        var version: Int
        var channel: String
        var core: String
        var locale: String?
        var rev: Int
        var status: SessionStatus
        var step: String
        var path: SessionPath
        var values: Answers
        var forward: [PathEntry]
        var messages: JSONValue
        var expiresAt: Double
        var month: Int
        var context: Answers?
        var pathJSON: [UInt8]?
    }

    private final class Box: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private var box: Box

    /// The snapshot cache's epoch (``SnapshotCache/epoch``) when this state was read from the
    /// database; nil for a state no database read produced (a start's, or one made by a change
    /// to such a state). A state read before the cache forgot everything (the listener
    /// reconnected, and changes made meanwhile were never notified) is not cached after it: it
    /// may be older than what the database holds. Beside the box, not in it: set on every read,
    /// where a new box would cost an allocation.
    var cacheEpoch: UInt64?

    init(
        id: SessionID, flowId: String, version: Int, channel: String, core: String, locale: String?, rev: Int,
        status: SessionStatus, step: String, path: SessionPath, values: Answers, forward: [PathEntry],
        messages: JSONValue, expiresAt: Double, month: Int, context: Answers? = nil, pathJSON: [UInt8]? = nil,
        cacheEpoch: UInt64? = nil
    ) {
        self.cacheEpoch = cacheEpoch
        box = Box(
            Fields(
                id: id, flowId: flowId, version: version, channel: channel, core: core, locale: locale, rev: rev,
                status: status, step: step, path: path, values: values, forward: forward, messages: messages,
                expiresAt: expiresAt, month: month, context: context, pathJSON: pathJSON))
    }

    var id: SessionID { box.fields.id }
    var flowId: String { box.fields.flowId }
    /// The pinned flow version (never changed by later releases).
    var version: Int { box.fields.version }
    var channel: String { box.fields.channel }
    /// The `Parley-Core` fixed at start; every screen of the session is gated for it.
    var core: String { box.fields.core }
    /// The locale fixed at start from `Accept-Language` (nil: a flow in one language): every
    /// screen and 422 message of the session is in it.
    var locale: String? { box.fields.locale }
    var rev: Int { box.fields.rev }
    var status: SessionStatus { box.fields.status }
    /// The current step (for a completed session, the terminal step reached).
    var step: String { box.fields.step }
    /// Confirmed steps so far, in order.
    var path: SessionPath { box.fields.path }
    /// Prefill for the current step.
    var values: Answers { box.fields.values }
    /// Steps undone by going back, nearest first.
    var forward: [PathEntry] { box.fields.forward }
    /// Live messages (DESIGN.md "Live sessions"), as stored.
    var messages: JSONValue { box.fields.messages }
    /// Seconds since 1970 after which an active session is expired.
    var expiresAt: Double { box.fields.expiresAt }
    /// The UTC month the session started (yyyymm): the partition key of its log rows, fixed for
    /// its whole life (migration 0009).
    var month: Int { box.fields.month }
    /// Every answer of `path` merged as replay reads them (``PathEntry/merged(_:in:)``), kept with
    /// the cached state so an answer extends it instead of recomputing it; nil when not known.
    var context: Answers? {
        get { box.fields.context }
        set {
            var fields = box.fields
            fields.context = newValue
            box = Box(fields)
        }
    }
    /// The step ids of `path` as the snapshot lists them (`"a","b"`, canonical JSON strings without
    /// the brackets), kept with the cached state so an answer appends one instead of writing them
    /// all again; nil when not known (written from `path` then).
    var pathJSON: [UInt8]? {
        get { box.fields.pathJSON }
        set {
            var fields = box.fields
            fields.pathJSON = newValue
            box = Box(fields)
        }
    }

    /// Whether the session can no longer be used: marked expired, or active and idle past its TTL
    /// (the sweeper marks it soon; callers answer 410 either way).
    func isExpired(now: Double) -> Bool {
        status == .expired || (status == .active && now >= expiresAt)
    }

    /// The same session after a change: `rev + 1` and the new state.
    func advanced(
        status: SessionStatus? = nil, step: String, path: SessionPath, values: Answers, forward: [PathEntry],
        messages: JSONValue? = nil, expiresAt: Double, context: Answers? = nil, pathJSON: [UInt8]? = nil
    ) -> SessionRecord {
        let fields = box.fields
        return SessionRecord(
            id: fields.id, flowId: fields.flowId, version: fields.version, channel: fields.channel, core: fields.core,
            locale: fields.locale, rev: fields.rev + 1, status: status ?? fields.status, step: step, path: path,
            values: values, forward: forward, messages: messages ?? fields.messages, expiresAt: expiresAt,
            month: fields.month, context: context, pathJSON: pathJSON, cacheEpoch: cacheEpoch)
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
