/// The servability lint's view of expressions (docs/expressions.md "Gating and lint"): which
/// escalations the gate made because a core lacks an `expression:` row of the registry (a
/// `visibleWhen` or a template without fallback that reads the current screen), reported where
/// the designer fixes them — at the `visibleWhen` or the template's property — rather than at the
/// step. The cores named are those the gate escalated, so lint and serving read one registry.
struct ExpressionServability {
    /// Failing cores per precise pointer, in order of first appearance.
    private var failures: [(pointer: JSONPointer, template: Bool, cores: [CoreVersion])] = []

    /// Whether `entry` is an escalation caused by an expression capability; records it for `core`.
    mutating func record(_ entry: GatingReportEntry, core: CoreVersion) -> Bool {
        guard entry.decision == .escalated else { return false }
        let pointer: JSONPointer
        let template: Bool
        switch entry.why.problem {
        case .visibility:
            pointer = entry.pointer.appending("visibleWhen")
            template = false
        case .unresolvedTemplate(let name, _):
            pointer = entry.pointer.appending("properties").appending(name)
            template = true
        default: return false
        }
        if let index = failures.firstIndex(where: { $0.pointer == pointer }) {
            if !failures[index].cores.contains(core) { failures[index].cores.append(core) }
        } else {
            failures.append((pointer, template, [core]))
        }
        return true
    }

    /// One `unservableStep` problem per recorded pointer.
    func problems(step: String) -> [LintProblem] {
        failures.map { failure in
            let cores = failure.cores.map { $0.description }.joined(separator: ", ")
            let message =
                failure.template
                ? "this template reads the current screen and has no \"fallback\", so core \(cores) cannot render"
                    + " step \"\(step)\" and the flow has no \"upgrade\" screen; add a fallback text or an upgrade screen"
                : "this node appears only as the current screen is answered, which core \(cores) cannot do, and the"
                    + " flow has no \"upgrade\" screen; add one, or a fallback node"
            return LintProblem(.unservableStep, pointer: failure.pointer, message: message)
        }
    }
}
