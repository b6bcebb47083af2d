public import ParleyCore

extension Component {
    /// Shows this node (and its subtree) only while `condition` holds, e.g.
    /// `.visible(when: Field("purpose") == "other")` (docs/expressions.md: the node's
    /// `visibleWhen`). A hidden input is not validated and its answer is cleared: the server drops
    /// it before storing anything. The condition is ``ParleyCore/Predicate`` data, never a `Bool`.
    public func visible(when condition: Predicate) -> Self {
        var copy = self
        copy.draft.visibleWhen = condition
        return copy
    }
}

extension Sized {
    /// Shows this stack child only while `condition` holds (see ``Component/visible(when:)``).
    public func visible(when condition: Predicate) -> Sized {
        var copy = self
        copy.draft.visibleWhen = condition
        return copy
    }
}
