/// The servability lint (docs/gating.md "Publishing checks servability"): for every
/// core version from a floor to the newest, how each step of a flow is served.
public struct Servability: Sendable {
    /// How one core is served one step.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Served exactly as authored: nothing substituted, dropped or stripped, no rule deferred.
        case native
        /// Served, but with fallbacks, dropped nodes, stripped properties or deferred rules.
        case viaFallbacks
        /// Not renderable; the flow's `upgrade` screen is served.
        case upgrade
        /// Not renderable and the flow has no `upgrade` screen: a lint error.
        case notServable
    }

    /// The oldest core that must be served.
    public let floor: CoreVersion
    /// The core versions checked: every registry version at or above ``floor``.
    public let cores: [CoreVersion]

    /// Checks every supported core version from `floor` (default ``CoreVersion/floor``) to the newest.
    public init(floor: CoreVersion = .floor) {
        self.floor = floor
        self.cores = CoreVersion.supported.filter { $0 >= floor }
    }

    /// The matrix (core version × step) for a flow, and its lint problems.
    public func analyze(_ flow: Flow) -> ServabilityMatrix {
        var rows: [[Status]] = []
        var problems: [LintProblem] = []
        let gates = cores.map { Gate(core: $0) }
        for (index, step) in flow.steps.enumerated() {
            var row: [Status] = []
            var first: (core: CoreVersion, reason: String)?
            // Escalations a 2.1 capability would avoid are reported at their `visibleWhen` or
            // template; the step-level problem names only the cores that fail for other reasons.
            var expressions = ExpressionServability()
            var failing: [String] = []
            // What a session serves whatever the path's answers (docs/expressions.md).
            let screen = SnapshotResolver.servabilityView(flow: flow, step: step)
            for (core, gate) in zip(cores, gates) {
                let gated = gate.gate(screen, at: JSONPointer(tokens: ["steps", String(index), "screen"]))
                if gated.needsUpgrade {
                    row.append(flow.upgrade == nil ? .notServable : .upgrade)
                    let escalations = gated.report.filter { $0.decision == .escalated }
                    let others = escalations.filter { !expressions.record($0, core: core) }
                    guard !others.isEmpty || escalations.isEmpty else { continue }
                    failing.append(core.description)
                    if first == nil {
                        first = (core, others.first.map { "\($0.pointer): \($0.reason)" } ?? "")
                    }
                } else {
                    row.append(gated.report.isEmpty && gated.deferred.isEmpty ? .native : .viaFallbacks)
                }
            }
            rows.append(row)
            if flow.upgrade == nil { problems += expressions.problems(step: step.id) }
            if flow.upgrade == nil, let first {
                problems.append(
                    LintProblem(
                        code: "unservableStep", pointer: JSONPointer(tokens: ["steps", String(index)]),
                        message: "step \"\(step.id)\" cannot be rendered by core \(failing.joined(separator: ", "))"
                            + " (\(first.reason)) and the flow has no \"upgrade\" screen; add one, or give the node"
                            + " a fallback those cores support"))
            }
        }
        if let upgrade = flow.upgrade {
            let failing = zip(cores, gates).filter {
                $0.1.gate(upgrade, at: JSONPointer(tokens: ["upgrade"])).needsUpgrade
            }
            if !failing.isEmpty {
                problems.append(
                    LintProblem(
                        code: "unservableUpgradeScreen", pointer: JSONPointer(tokens: ["upgrade"]),
                        message: "the \"upgrade\" screen cannot be rendered by core "
                            + failing.map { $0.0.description }.joined(separator: ", ")
                            + "; build it from core \(floor) components (the built-in one is served instead)"))
            }
        }
        return ServabilityMatrix(cores: cores, steps: flow.steps.map { $0.id }, rows: rows, problems: problems)
    }
}
