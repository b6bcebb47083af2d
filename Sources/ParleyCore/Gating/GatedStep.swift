/// The screen to serve for one flow step and core (docs/gating.md):
/// the gated step, or an upgrade screen when rule 4 hit.
public struct GatedStep: Sendable, Equatable {
    /// Which screen is served.
    public enum Served: String, Sendable, Hashable, CaseIterable {
        /// The step's own screen, gated.
        case step
        /// The flow's `upgrade` screen, gated.
        case upgrade
        /// ``UpgradeScreen/builtIn``: the flow has no `upgrade` screen, or the core cannot render it.
        case builtInUpgrade
    }

    /// The step asked for (its id as written in the flow).
    public let stepId: String
    /// Which screen is served.
    public let served: Served
    /// The screen to serve.
    public let screen: Screen
    /// The step's gating report, followed by the upgrade screen's when one is served.
    public let report: [GatingReportEntry]
    /// Rules the served screen's inputs do not carry.
    public let deferred: [DeferredRule]

    /// Creates a gated step.
    public init(stepId: String, served: Served, screen: Screen, report: [GatingReportEntry], deferred: [DeferredRule]) {
        self.stepId = stepId
        self.served = served
        self.screen = screen
        self.report = report
        self.deferred = deferred
    }

    /// Whether an upgrade screen is served instead of the step.
    public var isUpgrade: Bool { served != .step }

    /// Wire form: `{"step", "served", "screen", "report", "deferred"}`.
    public var json: JSONValue {
        [
            "step": .string(stepId), "served": .string(served.rawValue), "screen": screen.json,
            "report": .array(report.map(\.json)), "deferred": .array(deferred.map(\.json)),
        ]
    }

    /// Canonical bytes of ``json``: identical input gives identical bytes (ETag input).
    public var canonicalBytes: [UInt8] { CanonicalJSON.encode(json) }
}
