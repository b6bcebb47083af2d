extension LintWalk {
    /// A flow document (docs/wire-format.md "Flow"): steps, transitions, reachability and
    /// field references, each checked against the whole flow.
    mutating func lintFlow(_ document: JSONValue, at pointer: JSONPointer) {
        guard object(document, at: pointer, what: "A flow") != nil else { return }
        let value = lintLocalization(document, at: pointer)
        guard case .object(let flow) = value else { return }
        checkSchema(flow, expected: "flow", at: pointer)
        _ = identifier(flow, "id", at: pointer, what: "flow")
        _ = optionalString(flow, "title", at: pointer)
        if let retention = optionalString(flow, "retention", at: pointer), RetentionPeriod(retention) == nil {
            report(
                .invalidValue, pointer.appending("retention"),
                "\"retention\" must be an ISO 8601 duration longer than zero in whole units, such as \"P90D\", "
                    + "\"P1Y6M\" or \"PT36H\" (Y, M, W, D, then T and H, M, S; at most "
                    + "\(RetentionPeriod.maximumDigits) digits each).")
        }
        let start = string(flow, "start", at: pointer, why: "; it names the first step")
        let outerReferences = fieldReferences
        fieldReferences = []
        var fields: [ScalarKey: JSONPointer] = [:]
        var fieldSteps: [ScalarKey: Int] = [:]
        var stepIndex: [ScalarKey: Int] = [:]
        var gotos: [(from: Int, name: String, pointer: JSONPointer)] = []
        let stepsPointer = pointer.appending("steps")
        let steps = array(flow, "steps", at: pointer, required: true) ?? []
        within(steps.count, limits.maximumStepsPerFlow, name: "maximumStepsPerFlow", at: stepsPointer, what: "Steps")
        for (index, stepValue) in steps.prefix(limits.maximumStepsPerFlow).enumerated() {
            let stepPointer = stepsPointer.appending(index)
            guard let step = object(stepValue, at: stepPointer, what: "A step") else { continue }
            currentStep = index
            defer { currentStep = nil }
            if let id = identifier(step, "id", at: stepPointer, what: "step") {
                if let first = stepIndex[ScalarKey(id)] {
                    report(
                        .duplicateStepId, stepPointer.appending("id"),
                        "Step id \(Self.quoted(id)) is already used by \(stepsPointer.appending(first)).")
                } else {
                    stepIndex[ScalarKey(id)] = index
                }
            }
            if let screen = step["screen"] {
                let declared = lintScreen(screen, at: stepPointer.appending("screen"), isDocument: false)
                record(declared, into: &fields)
                for declaration in declared where fieldSteps[ScalarKey(declaration.name)] == nil {
                    fieldSteps[ScalarKey(declaration.name)] = index
                }
            } else {
                report(.missingMember, stepPointer.appending("screen"), "\"screen\" is required; every step shows one.")
            }
            gotos += lintTransitions(step, at: stepPointer).map { (index, $0.name, $0.pointer) }
        }
        if let upgrade = flow["upgrade"], !upgrade.isNull {
            var upgradeFields: [ScalarKey: JSONPointer] = [:]
            record(lintScreen(upgrade, at: pointer.appending("upgrade"), isDocument: false), into: &upgradeFields)
        }
        checkReferences(declared: fields, scope: "flow")
        let references = fieldReferences
        fieldReferences = outerReferences
        for entry in gotos where stepIndex[ScalarKey(entry.name)] == nil {
            report(
                .unknownStep, entry.pointer,
                "\"goto\" names \(Self.quoted(entry.name)), which is not a step of this flow.")
        }
        guard let start else { return }
        guard let startIndex = stepIndex[ScalarKey(start)] else {
            report(
                .unknownStep, pointer.appending("start"),
                "\"start\" names \(Self.quoted(start)), which is not a step of this flow.")
            return
        }
        let graph = StepGraph(
            stepCount: steps.count, start: startIndex,
            edges: gotos.compactMap { entry in stepIndex[ScalarKey(entry.name)].map { (entry.from, $0) } })
        reportUnreachable(graph, steps: stepIndex, at: stepsPointer)
        checkPathReferences(references, fieldSteps: fieldSteps, graph: graph, steps: stepIndex, at: stepsPointer)
    }

    /// A step's `next` list; returns every `goto` with its pointer.
    private mutating func lintTransitions(
        _ step: JSONObject, at pointer: JSONPointer
    ) -> [(name: String, pointer: JSONPointer)] {
        let nextPointer = pointer.appending("next")
        let transitions = array(step, "next", at: pointer, required: false) ?? []
        within(
            transitions.count, limits.maximumTransitionsPerStep, name: "maximumTransitionsPerStep", at: nextPointer,
            what: "Transitions")
        var gotos: [(name: String, pointer: JSONPointer)] = []
        for (index, value) in transitions.prefix(limits.maximumTransitionsPerStep).enumerated() {
            let transitionPointer = nextPointer.appending(index)
            guard let transition = object(value, at: transitionPointer, what: "A transition") else { continue }
            if let goto = string(transition, "goto", at: transitionPointer, why: "; it names the next step") {
                gotos.append((goto, transitionPointer.appending("goto")))
            }
            if let when = transition["when"], !when.isNull {
                lintPredicate(when, at: transitionPointer.appending("when"), depth: 1)
            }
        }
        return gotos
    }

    /// Steps no chain of `goto`s from `start` reaches (conditions ignored: any may hold).
    private mutating func reportUnreachable(_ graph: StepGraph, steps: [ScalarKey: Int], at pointer: JSONPointer) {
        for (id, index) in steps.sorted(by: { $0.value < $1.value }) where !graph.isReachable(index) {
            report(
                .unreachableStep, pointer.appending(index),
                "Step \(Self.quoted(id.string)) can never be shown: no \"goto\" path from \"start\" reaches it.")
        }
    }

    /// Adds declared fields to a flow's set, reporting duplicates.
    mutating func record(_ declared: [FieldDeclaration], into fields: inout [ScalarKey: JSONPointer]) {
        for declaration in declared {
            if let first = fields[ScalarKey(declaration.name)] {
                report(
                    .duplicateFieldId, declaration.pointer,
                    "fieldId \(Self.quoted(declaration.name)) is already used at \(first); each input needs its own.")
            } else {
                fields[ScalarKey(declaration.name)] = declaration.pointer
            }
        }
    }

    /// Reports every recorded reference to a field that is not declared.
    mutating func checkReferences(declared fields: [ScalarKey: JSONPointer], scope: String) {
        // A screen document stands alone: a field of another step can only be checked in its flow.
        let hint = scope == "screen" ? " Fields of earlier steps can be named only within a flow." : ""
        for reference in fieldReferences where fields[ScalarKey(reference.name)] == nil {
            report(
                .unknownField, reference.pointer,
                "\(reference.what) names the field \(Self.quoted(reference.name)), which no input of this \(scope) has."
                    + hint)
        }
    }

    /// A user-supplied value for a message, shortened so reports stay readable.
    static func quoted(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > 60 else { return "\"\(text)\"" }
        var short = String.UnicodeScalarView()
        short.append(contentsOf: scalars.prefix(57))
        return "\"\(String(short))...\""
    }
}
