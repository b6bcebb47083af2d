/// One thing the gate changed, with where and why (DESIGN.md "Capabilities and
/// version gating"). Nodes kept unchanged get no entry.
public struct GatingReportEntry: Sendable, Hashable {
    /// What the gate did.
    public enum Decision: String, Sendable, Hashable, CaseIterable {
        /// Rule 2: the node was replaced by its `fallback` (which was then gated in its place).
        case substituted
        /// Rule 3: the node was decorative and is not served.
        case dropped
        /// Rule 4: the node is an input or the only way forward; the step needs the upgrade screen.
        case escalated
        /// An unsupported, non-essential property was stripped from a kept node.
        case propertyRemoved
        /// A kept node's action was replaced by its `fallback` action.
        case actionFallback
    }

    /// The `id` of the node concerned.
    public let nodeId: String
    /// JSON Pointer (RFC 6901) to the node, property or action in the input document.
    public let pointer: JSONPointer
    /// What the gate did.
    public let decision: Decision
    /// A sentence saying why, naming the core version that would have been needed.
    public let reason: String

    /// Creates an entry.
    public init(nodeId: String, pointer: JSONPointer, decision: Decision, reason: String) {
        self.nodeId = nodeId
        self.pointer = pointer
        self.decision = decision
        self.reason = reason
    }

    /// Wire form: `{"nodeId", "pointer", "action", "reason"}` (`action` is the decision).
    public var json: JSONValue {
        [
            "nodeId": .string(nodeId), "pointer": .string(pointer.description), "action": .string(decision.rawValue),
            "reason": .string(reason),
        ]
    }
}
