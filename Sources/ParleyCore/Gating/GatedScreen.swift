/// A screen gated for one capability set (docs/gating.md).
public struct GatedScreen: Sendable, Equatable {
    /// The screen to serve: only what the core supports, no `fallback` members
    /// left, actions without fallback chains. When ``needsUpgrade`` is true this
    /// is diagnostic only (escalated nodes are missing) and must not be served.
    public let screen: Screen
    /// Every substitution, drop, escalation, stripped property and action
    /// fallback, in document order.
    public let report: [GatingReportEntry]
    /// Rules the served inputs do not carry, in document order.
    public let deferred: [DeferredRule]
    /// Whether rule 4 hit: an unsupported input, or the only way forward, could
    /// not be served, so the flow's `upgrade` screen must be served instead.
    public let needsUpgrade: Bool

    /// Creates a gated screen.
    public init(screen: Screen, report: [GatingReportEntry], deferred: [DeferredRule], needsUpgrade: Bool) {
        self.screen = screen
        self.report = report
        self.deferred = deferred
        self.needsUpgrade = needsUpgrade
    }

    /// Wire form: `{"screen", "report", "deferred", "needsUpgrade"}`.
    public var json: JSONValue {
        [
            "screen": screen.json, "report": .array(report.map(\.json)), "deferred": .array(deferred.map(\.json)),
            "needsUpgrade": .bool(needsUpgrade),
        ]
    }

    /// Canonical bytes of ``json``: identical input gives identical bytes (ETag input).
    public var canonicalBytes: [UInt8] { CanonicalJSON.encode(json) }
}
