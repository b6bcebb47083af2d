extension Screen {
    /// Rules whose parameters cannot be evaluated (an invalid I-Regexp, bad
    /// `date` bounds), each with the JSON Pointer of the rule inside the screen
    /// document that starts at `pointer`. Codes: `invalidPattern`, `invalidRuleParameter`.
    ///
    /// Fallbacks are included: a fallback's rules are served to some cores.
    public func ruleProblems(at pointer: JSONPointer = .root) -> [LintProblem] {
        var problems: [LintProblem] = []
        func visit(_ node: Node, at nodePointer: JSONPointer) {
            for (index, rule) in node.validation.enumerated() {
                guard let problem = rule.parameterProblem else { continue }
                let rulePointer = nodePointer.appending("properties").appending("validation").appending(index)
                let code: String
                if case .pattern = rule.check { code = "invalidPattern" } else { code = "invalidRuleParameter" }
                problems.append(LintProblem(code: code, pointer: rulePointer, message: "\(rule.name): \(problem)"))
            }
            for (index, child) in node.children.enumerated() {
                visit(child, at: nodePointer.appending("children").appending(index))
            }
            if let fallback = node.fallback { visit(fallback, at: nodePointer.appending("fallback")) }
        }
        visit(root, at: pointer.appending("root"))
        return problems
    }
}
