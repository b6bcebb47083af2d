extension Component where Kind: ContentKind {
    /// The node served instead to cores that lack this node's type or a
    /// property it uses (docs/gating.md, rule 2).
    public func fallback<Other: ContentKind>(_ content: () -> Component<Other>) -> Self {
        var copy = self
        copy.draft.fallbacks = [content().draft]
        return copy
    }
}

extension Component where Kind: InputKind {
    /// The input served instead to cores that lack this one's type.
    ///
    /// A fallback stands in for its node, so it must be an input and it
    /// carries the same `fieldId`: the closure receives the field, and the DSL
    /// sets the fallback's `fieldId` to this node's whatever the closure did.
    /// A fallback without rules inherits this node's rules, so older cores
    /// still give instant feedback (the server checks the full set anyway).
    public func fallback<Other: InputKind>(_ content: (Field) -> Component<Other>) -> Self {
        var copy = self
        var fallback = content(Field(draft.fieldId ?? "")).draft
        fallback.properties["fieldId"] = draft.properties["fieldId"]
        if fallback.validation.isEmpty { fallback.validation = draft.validation }
        copy.draft.fallbacks = [fallback]
        return copy
    }
}
