public import ParleyCore

/// One node of a screen, typed by its phantom ``ComponentKind``.
///
/// Values are plain data: building a screen evaluates the DSL once and yields
/// a ``ParleyCore/Screen``; nothing here reaches the wire as code. Use the
/// typealiases named after wire types (``VStack``, ``TextField``, …) rather
/// than this type directly.
public struct Component<Kind: ComponentKind>: Sendable {
    var draft: Draft

    init(properties: JSONObject = JSONObject(), children: [Draft] = [], action: Action? = nil) {
        draft = Draft(type: Kind.type, properties: properties, children: children, action: action)
    }

    /// Gives the node an explicit id (unique in the screen), overriding the derived one.
    public func id(_ id: String) -> Self {
        var copy = self
        copy.draft.explicitId = id
        return copy
    }

    /// The node this component builds, with ids derived from `id`.
    public func node(id: String) -> Node {
        draft.resolve(id: draft.explicitId ?? id)
    }

    func with(_ key: String, _ value: JSONValue?) -> Self {
        var copy = self
        copy.draft.properties[key] = value
        return copy
    }
}

/// A `vstack`.
public typealias VStack = Component<Kinds.VStack>
/// An `hstack`.
public typealias HStack = Component<Kinds.HStack>
/// A `text`.
public typealias Text = Component<Kinds.Text>
/// An `image`.
public typealias Image = Component<Kinds.Image>
/// A `button`.
public typealias Button = Component<Kinds.Button>
/// A `spacer`.
public typealias Spacer = Component<Kinds.Spacer>
/// A `divider`.
public typealias Divider = Component<Kinds.Divider>
/// A `card` (core 1.1).
public typealias Card = Component<Kinds.Card>
/// A `carousel` (core 2.0).
public typealias Carousel = Component<Kinds.Carousel>
/// A `grid` (core 2.0).
public typealias Grid = Component<Kinds.Grid>
/// A `textField`.
public typealias TextField = Component<Kinds.TextField>
/// A `picker`.
public typealias Picker = Component<Kinds.Picker>
/// A `quickReplies` (core 1.1).
public typealias QuickReplies = Component<Kinds.QuickReplies>
/// A `datePicker` (core 1.2).
public typealias DatePicker = Component<Kinds.DatePicker>
/// A `toggle` (core 1.2).
public typealias Toggle = Component<Kinds.Toggle>
