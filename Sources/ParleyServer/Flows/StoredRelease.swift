public import ParleyCore

/// One row of a flow's release history.
public struct StoredRelease: Sendable {
    /// Monotonic release id; the newest per (flow, channel) is live.
    public let id: Int
    /// The flow's id.
    public let flowId: String
    /// Channel, e.g. `production`.
    public let channel: String
    /// The released version.
    public let version: Int
    /// Who released it.
    public let releasedBy: String
    /// 1…100: the share of new sessions that get this version (DESIGN.md "Staged rollouts").
    public let percent: Int
    /// Whether this partial release was halted.
    public let halted: Bool
    /// When (RFC 3339, UTC).
    public let createdAt: String

    /// Wire form.
    public var json: JSONValue {
        [
            "id": .number(JSONNumber(id)), "flow": .string(flowId), "channel": .string(channel),
            "version": .number(JSONNumber(version)), "releasedBy": .string(releasedBy),
            "releasedAt": .string(createdAt), "percent": .number(JSONNumber(percent)), "halted": .bool(halted),
        ]
    }
}
