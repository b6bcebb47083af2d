import ParleyCore

extension Component where Kind == Kinds.VStack {
    /// A vertical stack.
    public init(
        spacing: Spacing? = nil, alignment: HorizontalAlignment? = nil, @StackBuilder content: () -> Children
    ) {
        self.init(children: content().drafts)
        draft.properties["spacing"] = spacing.map { .string($0.token) }
        draft.properties["alignment"] = alignment.map { .string($0.token) }
    }
}

extension Component where Kind == Kinds.HStack {
    /// A horizontal stack.
    public init(
        spacing: Spacing? = nil, alignment: VerticalAlignment? = nil, @StackBuilder content: () -> Children
    ) {
        self.init(children: content().drafts)
        draft.properties["spacing"] = spacing.map { .string($0.token) }
        draft.properties["alignment"] = alignment.map { .string($0.token) }
    }
}

extension Component where Kind == Kinds.Spacer {
    /// Flexible empty space.
    public init() { self.init(properties: JSONObject()) }
}

extension Component where Kind == Kinds.Divider {
    /// A separating line.
    public init() { self.init(properties: JSONObject()) }
}

extension Component where Kind == Kinds.Carousel {
    /// A horizontally paged set of children (core 2.0).
    public init(@ContentBuilder content: () -> Children) { self.init(children: content().drafts) }
}

extension Component where Kind == Kinds.Grid {
    /// A grid of children (core 2.0), optionally with a column count.
    public init(columns: Int? = nil, @ContentBuilder content: () -> Children) {
        self.init(children: content().drafts)
        draft.properties["columns"] = columns.map { .number(JSONNumber($0)) }
    }
}
