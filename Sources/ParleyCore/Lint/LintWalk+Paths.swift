extension LintWalk {
    /// Cross-step references (docs/sessions.md): `equalsField` and predicates on a step may
    /// read a field of the same step or of a step on every path from `start` to it, because only
    /// those are sure to have been answered when the step is validated. Any other field of the
    /// flow (a sibling branch, a later step) is `fieldNotOnEveryPath`. Unknown fields are left
    /// to `unknownField`; references from unreachable steps to `unreachableStep`.
    mutating func checkPathReferences(
        _ references: [FieldReference], fieldSteps: [ScalarKey: Int], graph: StepGraph, steps: [ScalarKey: Int],
        at stepsPointer: JSONPointer
    ) {
        var stepIds: [Int: String] = [:]
        for (id, index) in steps { stepIds[index] = id.string }
        func named(_ index: Int) -> String { Self.quoted(stepIds[index] ?? "#\(index)") }
        for reference in references where reference.readsPath {
            guard let step = reference.step, graph.isReachable(step),
                let declaring = fieldSteps[ScalarKey(reference.name)], declaring != step,
                !graph.isOnEveryPath(declaring, to: step)
            else { continue }
            report(
                .fieldNotOnEveryPath, reference.pointer,
                "\(reference.what) names the field \(Self.quoted(reference.name)) of step \(named(declaring)), "
                    + "which is not on every path from \"start\" to step \(named(step)): "
                    + "a user can reach this step without answering it.")
        }
    }
}
