public import ParleyCore

extension Component where Kind == Kinds.Text {
    /// Static text with an optional semantic style.
    public init(_ text: String, style: TextStyle? = nil) {
        self.init(properties: JSONObject([("text", .string(text))]))
        draft.properties["style"] = style.map { .string($0.token) }
    }
}

extension Component where Kind == Kinds.Image {
    /// An image from an `https` URL, with alternative text for accessibility.
    ///
    /// `aspectRatio` is a decimal width/height ratio, e.g. `"1.5"`.
    public init(url: String, alt: String, aspectRatio: DecimalValue? = nil) {
        self.init(properties: JSONObject([("url", .string(url)), ("alt", .string(alt))]))
        draft.properties["aspectRatio"] = aspectRatio.map { .number($0.number) }
    }
}

extension Component where Kind == Kinds.Button {
    /// A button performing an action (`.submit`, `.openURL(…)`, `.network(…)`, …).
    public init(_ title: String, action: Action) {
        self.init(properties: JSONObject([("title", .string(title))]), action: action)
    }
}

extension Component where Kind == Kinds.Card {
    /// A card (core 1.1): title, optional subtitle, image and action, and
    /// children, which may carry a `size` (the capability registry lists
    /// `size` under `card` as under the stacks).
    public init(
        _ title: String, subtitle: String? = nil, imageUrl: String? = nil, action: Action? = nil,
        @StackBuilder content: () -> Children = { .empty }
    ) {
        self.init(properties: JSONObject([("title", .string(title))]), children: content().drafts, action: action)
        draft.properties["subtitle"] = subtitle.map(JSONValue.string)
        draft.properties["imageUrl"] = imageUrl.map(JSONValue.string)
    }
}
