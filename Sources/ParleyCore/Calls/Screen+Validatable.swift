extension Screen {
    /// The screen a validation runs against, from a decoded document: a screen document,
    /// or the step `step` of a flow document (`stepHint` says how to name one, e.g.
    /// "with --step"). Refuses screens whose rules are ill-formed (an invalid I-Regexp):
    /// a conforming core must not validate against them (Tests/Conformance/README.md).
    public static func validatable(
        from document: JSONValue, step: String?, source: String, stepHint: String
    ) throws(CallProblem) -> Screen {
        let schema = document["schema"]?.stringValue ?? ""
        let screen: Screen
        let pointer: JSONPointer
        if schema.hasPrefix("parley.flow/") {
            let flow: Flow
            do {
                flow = try Flow(json: document, at: .root)
            } catch {
                throw CallProblem("\(source): \(error.description)")
            }
            guard let stepId = step else {
                throw CallProblem("\(source) is a flow: name a step \(stepHint)")
            }
            guard let index = flow.steps.firstIndex(where: { $0.id.isScalarEqual(to: stepId) }) else {
                let known = flow.steps.map { $0.id }.joined(separator: ", ")
                throw CallProblem("\(source) has no step \"\(stepId)\" (steps: \(known))")
            }
            screen = flow.steps[index].screen
            pointer = JSONPointer.root.appending("steps").appending(index).appending("screen")
        } else {
            do {
                screen = try Screen(json: document, at: .root)
            } catch {
                throw CallProblem("\(source): \(error.description)")
            }
            pointer = .root
        }
        if let problem = screen.ruleProblems(at: pointer).first {
            throw CallProblem("\(source): \(problem.description)")
        }
        return screen
    }
}
