public import ParleyCore

/// One immutable flow version as stored (DESIGN.md "Storage").
public struct StoredFlowVersion: Sendable {
    /// The flow's id.
    public let flowId: String
    /// 1, 2, 3… per flow.
    public let version: Int
    /// SHA-256 of the canonical bytes, lowercase hex.
    public let contentHash: String
    /// Token name (API) or `bundle:<key id>`.
    public let author: String
    /// `api` or `bundle`.
    public let source: String
    /// When it was stored (RFC 3339, UTC).
    public let createdAt: String
    /// The decoded flow.
    public let flow: Flow

    /// Summary without content, for lists.
    public var summaryJSON: JSONValue {
        [
            "flow": .string(flowId), "version": .number(JSONNumber(version)), "contentHash": .string(contentHash),
            "author": .string(author), "source": .string(source), "createdAt": .string(createdAt),
        ]
    }

    /// Summary plus the flow document.
    public var fullJSON: JSONValue {
        guard case .object(var object) = summaryJSON else { return summaryJSON }
        object["content"] = flow.json
        return .object(object)
    }
}
