import ParleyCore

extension Component where Kind: InputKind {
    init(field: Field, label: DisplayText?, extra: [(String, JSONValue)] = []) {
        var properties = JSONObject(extra)
        properties["fieldId"] = .string(field.name)
        properties["label"] = label?.json
        self.init(properties: properties)
    }
}

extension Component where Kind == Kinds.TextField {
    /// A free-text input.
    public init(_ field: Field, label: DisplayText, placeholder: DisplayText? = nil) {
        self.init(field: field, label: label)
        draft.properties["placeholder"] = placeholder?.json
    }
}

extension Component where Kind == Kinds.Picker {
    /// A choice among `options` (the submitted value is the option string).
    public init(_ field: Field, label: DisplayText, options: [String]) {
        self.init(field: field, label: label, extra: [("options", .array(options.map(JSONValue.string)))])
    }
}

extension Component where Kind == Kinds.QuickReplies {
    /// Tappable replies (core 1.1); give it a `.fallback { field in Picker(field, …) }` for 1.0 cores.
    public init(_ field: Field, options: [String]) {
        self.init(field: field, label: nil, extra: [("options", .array(options.map(JSONValue.string)))])
    }
}

extension Component where Kind == Kinds.DatePicker {
    /// A date input (core 1.2); answers are RFC 3339 `full-date`s.
    public init(_ field: Field, label: DisplayText) { self.init(field: field, label: label) }
}

extension Component where Kind == Kinds.Toggle {
    /// An on/off input (core 1.2).
    public init(_ field: Field, label: DisplayText) { self.init(field: field, label: label) }
}
