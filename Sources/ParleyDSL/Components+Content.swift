public import ParleyCore

extension Component where Kind == Kinds.Text {
    /// Text with an optional semantic style: static, or a template recalling answers
    /// (`Text("Thanks, \(Field("firstName"))")`), with the `fallback` older cores show instead.
    public init(_ text: DisplayText, style: TextStyle? = nil, fallback: String? = nil) {
        let content = fallback.map { DisplayText(text, fallback: $0) } ?? text
        self.init(properties: JSONObject([("text", content.json)]))
        draft.properties["style"] = style.map { .string($0.token) }
    }
}

extension Component where Kind == Kinds.Image {
    /// An image from an `https` URL, with alternative text for accessibility.
    ///
    /// `aspectRatio` is a decimal width/height ratio, e.g. `"1.5"`.
    public init(url: String, alt: DisplayText, aspectRatio: DecimalValue? = nil) {
        self.init(properties: JSONObject([("url", .string(url)), ("alt", alt.json)]))
        draft.properties["aspectRatio"] = aspectRatio.map { .number($0.number) }
    }
}

extension Component where Kind == Kinds.Button {
    /// A button performing an action (`.submit`, `.openURL(…)`, `.network(…)`, …).
    public init(_ title: DisplayText, action: Action) {
        self.init(properties: JSONObject([("title", title.json)]), action: action)
    }
}

extension Component where Kind == Kinds.Card {
    /// A card (core 1.1): title, optional subtitle, image and action, and
    /// children, which may carry a `size` (the capability registry lists
    /// `size` under `card` as under the stacks).
    public init(
        _ title: DisplayText, subtitle: DisplayText? = nil, imageUrl: String? = nil, action: Action? = nil,
        @StackBuilder content: () -> Children = { .empty }
    ) {
        self.init(properties: JSONObject([("title", title.json)]), children: content().drafts, action: action)
        draft.properties["subtitle"] = subtitle?.json
        draft.properties["imageUrl"] = imageUrl.map(JSONValue.string)
    }
}
