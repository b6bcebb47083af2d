/// The servability rule for expressions (docs/expressions.md, docs/gating.md): templates,
/// `visibleWhen` and computed values are core 2.1 capabilities. What depends only on earlier steps
/// is resolved by the server for every core (``SnapshotResolver``); what reads the current screen
/// needs 2.1, else a template's `fallback`, a node `fallback`, or — for an input, or a template
/// with no fallback — the flow's `upgrade` screen (gating rule 4). A flow without one is refused.
enum ExpressionServability {
    /// The first core that evaluates expressions live.
    static let introduced = CoreVersion(2, 1, 0)

    /// `unservableStep` problems for the cores from `floor` below 2.1, when the flow has no upgrade screen.
    static func problems(_ flow: Flow, floor: CoreVersion) -> [LintProblem] {
        guard flow.upgrade == nil else { return [] }
        let cores = CoreVersion.supported.filter { $0 >= floor && $0 < introduced }.map { $0.description }
        guard !cores.isEmpty else { return [] }
        var problems: [LintProblem] = []
        for (index, step) in flow.steps.enumerated() {
            let dependencies = ScreenDependencies(flow: flow, screen: step.screen)
            func visit(_ node: Node, at pointer: JSONPointer) {
                // A node fallback stands in for the whole node on older cores (rule 2).
                if node.fallback == nil {
                    for name in Template.textProperties {
                        guard let template = node.template(name), template.fallback == nil,
                            dependencies.readsScreen(template)
                        else { continue }
                        problems.append(
                            LintProblem(
                                .unservableStep, pointer: pointer.appending("properties").appending(name),
                                message: "this template reads the current screen and has no \"fallback\", so core "
                                    + cores.joined(separator: ", ")
                                    + " cannot render step \"\(step.id)\" and the flow has no \"upgrade\" screen; add a"
                                    + " fallback text or an upgrade screen"))
                    }
                    if let condition = node.visibleWhen, dependencies.readsScreen(condition), Needs(node).input {
                        problems.append(
                            LintProblem(
                                .unservableStep, pointer: pointer.appending("visibleWhen"),
                                message: "this input appears only as the current screen is answered, which core "
                                    + cores.joined(separator: ", ")
                                    + " cannot do, and the flow has no \"upgrade\" screen; add one, or a fallback node")
                        )
                    }
                }
                for (position, child) in node.children.enumerated() {
                    visit(child, at: pointer.appending("children").appending(position))
                }
            }
            visit(step.screen.root, at: JSONPointer(tokens: ["steps", String(index), "screen", "root"]))
        }
        return problems
    }
}
