/// A component with a per-child `size`; accepted only by ``StackBuilder``,
/// so `.size(…)` outside a `vstack`/`hstack`/`card` does not compile.
public struct Sized: Sendable {
    var draft: Draft
}

extension Component {
    /// How the child takes space along its stack's axis (`hug`, `fill`, `{"weight": n}`).
    public func size(_ size: Size) -> Sized {
        var draft = self.draft
        draft.properties["size"] = size.json
        return Sized(draft: draft)
    }
}
