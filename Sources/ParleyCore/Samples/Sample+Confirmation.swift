extension Sample {
    /// Whether the interpreter agrees with the label, checked from the outside
    /// (only ``RuleInterpreter``'s public API), so tests and other-language
    /// cores can confirm samples without trusting the generator.
    ///
    /// `pass`: the whole screen validates (server mode). `fail`: the screen's
    /// only error is `rule` on `field`, and run alone, every other rule of the
    /// field passes while the targeted one fails — so it fails *exactly* its rule.
    /// `context` holds answers of earlier steps (``StepSamples/context``); they are not on `screen`.
    public func isConfirmed(by screen: Screen, context: Answers = Answers()) -> Bool {
        var answers = context
        for field in self.answers.fieldIds { answers[field] = self.answers[field] }
        // The step's own answers, with the earlier steps' as context (what a session validates with).
        let outcome = RuleInterpreter(mode: .server).validate(screen: screen, answers: self.answers, context: context)
        let onScreen = outcome.errors.filter { !($0.rule == "unexpectedField" && context[$0.field] != nil) }
        guard expectation == .fail else { return onScreen.isEmpty }
        guard onScreen.count == 1, onScreen[0].field.isScalarEqual(to: field), onScreen[0].rule == rule, let ruleIndex,
            let node = screen.inputs.first(where: { $0.fieldId?.isScalarEqual(to: field) == true }),
            ruleIndex < node.validation.count
        else { return false }
        for (position, candidate) in node.validation.enumerated() {
            var alone = node
            alone.validation = [candidate]
            alone.children = []
            let single = Screen(id: screen.id, root: alone)
            // The other fields are context for the one-input screen (a rule reads a field that is not
            // on its screen from the path), so predicates still see them; only this field counts.
            var own = Answers()
            own[field] = answers[field]
            let failed = RuleInterpreter(mode: .server).validate(screen: single, answers: own, context: answers).errors
                .contains { $0.field.isScalarEqual(to: field) }
            if failed != (position == ruleIndex) { return false }
        }
        return true
    }
}
