extension Answers {
    /// These answers with `later` laid over them: a field `later` answers takes `later`'s value.
    ///
    /// This is how the answers of a session's path add up, step after step (DESIGN.md "Sessions").
    public func merging(_ later: Answers) -> Answers {
        guard !fieldIds.isEmpty else { return later }
        var merged = self
        for field in later.fieldIds { merged[field] = later[field] }
        return merged
    }

    /// The answers the rules and transitions of `screen` read (DESIGN.md "Sessions"): for a
    /// field on the screen, this step's `answers` alone (a field absent there is absent even
    /// when `context` has it); for any other field, `context`, the answers of earlier steps.
    ///
    /// Both the interpreter and ``Step/nextStepId(for:context:)`` read through this, so a step's
    /// rules and its transitions can never see different values for one field.
    public static func onPath(_ answers: Answers, context: Answers, screen: Screen) -> Answers {
        guard !context.fieldIds.isEmpty else { return answers }
        let onScreen = screen.fieldKeys
        var visible = Answers()
        for field in context.fieldIds where !onScreen.contains(ScalarKey(field)) { visible[field] = context[field] }
        return visible.merging(answers)
    }
}

extension Screen {
    /// Every field the screen declares, fallbacks' fields included (they stand in for their node).
    var fieldKeys: Set<ScalarKey> {
        var keys = Set<ScalarKey>()
        func collect(_ node: Node) {
            if let field = node.fieldId { keys.insert(ScalarKey(field)) }
            node.children.forEach(collect)
            if let fallback = node.fallback { collect(fallback) }
        }
        collect(root)
        return keys
    }
}
