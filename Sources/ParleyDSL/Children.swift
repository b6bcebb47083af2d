/// The children a builder body produced, in order. Opaque: only the DSL's
/// builders make one, so every child is a ``Component``.
public struct Children: Sendable {
    var drafts: [Draft]

    init(_ drafts: [Draft]) { self.drafts = drafts }

    /// No children.
    public static let empty = Children([])
}
