/// Gates screens and flow steps for one client core's capabilities
/// (docs/gating.md).
///
/// Pure and deterministic: the same screen and capability set always give the
/// same ``GatedScreen`` (and the same canonical bytes), so its output per (flow
/// version, step, capability set) can be cached and carry an ETag. The rules
/// are documented on the internal `GateRun` and in
/// `Tests/Conformance/gating/README.md`.
public struct Gate: Sendable {
    /// What the core understands.
    public let capabilities: CapabilitySet

    /// A gate for a capability set.
    public init(capabilities: CapabilitySet) {
        self.capabilities = capabilities
    }

    /// A gate for the standard capability set of a core version.
    public init(core: CoreVersion) {
        self.init(capabilities: CapabilitySet(core: core))
    }

    /// Gates a screen node by node; report pointers are relative to the screen document.
    public func gate(_ screen: Screen) -> GatedScreen {
        gate(screen, at: .root)
    }

    /// Gates a screen whose document position is `pointer` (e.g. `/steps/2/screen`),
    /// so report pointers point into the enclosing document.
    public func gate(_ screen: Screen, at pointer: JSONPointer) -> GatedScreen {
        var run = GateRun(capabilities: capabilities, base: pointer)
        return run.run(screen)
    }

    /// Gates one step of a flow: the step itself when every node can be served
    /// or replaced (rules 1–3), else the flow's `upgrade` screen, gated too, or
    /// ``UpgradeScreen/builtIn`` when the flow has none or its own cannot be
    /// served. `nil` when the flow has no such step (scalar-exact id match).
    ///
    /// Report pointers are relative to the flow document (`/steps/1/screen/…`,
    /// `/upgrade/…`); the report keeps the step's entries, so it says why the
    /// upgrade screen was served.
    ///
    /// This is the step as served without a session: for a core before 2.1, what reads only
    /// earlier steps is first settled without their answers (shown; templates' expressions empty)
    /// (`SnapshotResolver.withoutSession(flow:step:capabilities:)`). A session resolves its
    /// own step first (``SnapshotResolver/resolve(flow:step:context:liveExpressions:)``), which
    /// leaves nothing for that pass to change.
    public func gate(_ flow: Flow, step: String) -> GatedStep? {
        guard let index = flow.steps.firstIndex(where: { $0.id.isScalarEqual(to: step) }) else { return nil }
        let stepId = flow.steps[index].id
        let screen = SnapshotResolver.withoutSession(flow: flow, step: flow.steps[index], capabilities: capabilities)
        let gated = gate(screen, at: JSONPointer(tokens: ["steps", String(index), "screen"]))
        guard gated.needsUpgrade else {
            return GatedStep(
                stepId: stepId, served: .step, screen: gated.screen, report: gated.report, deferred: gated.deferred)
        }
        var report = gated.report
        if let upgrade = flow.upgrade {
            let gatedUpgrade = gate(upgrade, at: JSONPointer(tokens: ["upgrade"]))
            report += gatedUpgrade.report
            if !gatedUpgrade.needsUpgrade {
                return GatedStep(
                    stepId: stepId, served: .upgrade, screen: gatedUpgrade.screen, report: report,
                    deferred: gatedUpgrade.deferred)
            }
        }
        return GatedStep(
            stepId: stepId, served: .builtInUpgrade, screen: UpgradeScreen.builtIn, report: report, deferred: [])
    }
}
