public import ParleyCore

extension Screen {
    /// A screen whose root is a `vstack` with id `root` holding `content`.
    ///
    /// Ids not given with `.id(…)` are derived from the structure of this
    /// screen only (see ``Component/node(id:)``), so editing one screen never
    /// renumbers another.
    public init(
        _ id: String, title: String? = nil, spacing: Spacing? = nil, alignment: HorizontalAlignment? = nil,
        @StackBuilder content: () -> Children
    ) {
        let root = VStack(spacing: spacing, alignment: alignment, content: content)
        self.init(id: id, title: title, root: root.node(id: "root"))
    }
}
