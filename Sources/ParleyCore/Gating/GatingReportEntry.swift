/// One thing the gate changed, with where and why (docs/gating.md).
/// Nodes kept unchanged get no entry.
public struct GatingReportEntry: Sendable, Hashable {
    /// What the gate did.
    public enum Decision: String, Sendable, Hashable, CaseIterable {
        /// Rule 2: the node was replaced by its `fallback` (which was then gated in its place).
        case substituted
        /// Rule 3: the node was decorative and is not served.
        case dropped
        /// Rule 4: the node is an input, the root or the only way forward; the step needs the upgrade screen.
        case escalated
        /// An unsupported, non-essential property was stripped from a kept node.
        case propertyRemoved
        /// A kept node's action was replaced by its `fallback` action.
        case actionFallback
        /// A template the core cannot resolve was replaced by its `fallback` text (docs/expressions.md).
        case templateFallback
    }

    /// The `id` of the node concerned.
    public let nodeId: String
    /// What the gate did.
    public let decision: Decision
    let location: GatingLocation
    let why: GatingReason

    init(nodeId: String, decision: Decision, location: GatingLocation, why: GatingReason) {
        self.nodeId = nodeId
        self.decision = decision
        self.location = location
        self.why = why
    }

    /// JSON Pointer (RFC 6901) to the node, property or action in the input document.
    public var pointer: JSONPointer { location.pointer }

    /// A sentence saying why, naming the capability and the core version that introduced it.
    public var reason: String { why.sentence }

    /// Wire form: `{"nodeId", "pointer", "action", "reason"}` (`action` is the decision).
    public var json: JSONValue {
        [
            "nodeId": .string(nodeId), "pointer": .string(pointer.description), "action": .string(decision.rawValue),
            "reason": .string(reason),
        ]
    }
}
