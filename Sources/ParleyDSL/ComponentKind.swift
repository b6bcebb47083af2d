public import ParleyCore

/// The phantom context of a ``Component``: what kind of node it builds.
///
/// Modifiers are declared on `Component where Kind: …`, so a modifier that
/// makes no sense for a node (a rule on a `text`, a numeric rule on a
/// `picker`) is a compile error rather than a lint problem (STYLE.md, Plot's
/// phantom contexts; docs/wire-format.md "Component vocabulary").
public protocol ComponentKind: Sendable {
    /// The wire type this kind builds.
    static var type: ComponentType { get }
}

/// A node that shows or arranges things but collects no answer.
public protocol ContentKind: ComponentKind {}

/// A node that collects an answer: it has a `fieldId` and `validation`.
public protocol InputKind: ComponentKind {}

/// An input whose answer is free text: length, pattern, `email` and `oneOf` rules apply.
public protocol TextInputKind: InputKind {}

/// An input whose answer may be a decimal number: `minimum`, `maximum`,
/// `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf` and `integer` apply.
public protocol NumericInputKind: InputKind {}

/// An input whose answer may be an RFC 3339 `full-date`: the `date` rule applies.
public protocol DateInputKind: InputKind {}

/// An input whose answer is one of a list of options: `oneOf` applies.
public protocol ChoiceInputKind: InputKind {}

/// The component kinds, one per wire type (docs/wire-format.md "Component vocabulary").
public enum Kinds {
    /// `vstack`.
    public enum VStack: ContentKind { public static var type: ComponentType { .vstack } }
    /// `hstack`.
    public enum HStack: ContentKind { public static var type: ComponentType { .hstack } }
    /// `text`.
    public enum Text: ContentKind { public static var type: ComponentType { .text } }
    /// `image`.
    public enum Image: ContentKind { public static var type: ComponentType { .image } }
    /// `button`.
    public enum Button: ContentKind { public static var type: ComponentType { .button } }
    /// `spacer`.
    public enum Spacer: ContentKind { public static var type: ComponentType { .spacer } }
    /// `divider`.
    public enum Divider: ContentKind { public static var type: ComponentType { .divider } }
    /// `card` (core 1.1).
    public enum Card: ContentKind { public static var type: ComponentType { .card } }
    /// `carousel` (core 2.0).
    public enum Carousel: ContentKind { public static var type: ComponentType { .carousel } }
    /// `grid` (core 2.0).
    public enum Grid: ContentKind { public static var type: ComponentType { .grid } }
    /// `textField`: the only free-text input, so text, numeric and date rules apply.
    public enum TextField: TextInputKind, NumericInputKind, DateInputKind {
        public static var type: ComponentType { .textField }
    }
    /// `picker`.
    public enum Picker: ChoiceInputKind { public static var type: ComponentType { .picker } }
    /// `quickReplies` (core 1.1).
    public enum QuickReplies: ChoiceInputKind { public static var type: ComponentType { .quickReplies } }
    /// `datePicker` (core 1.2).
    public enum DatePicker: DateInputKind { public static var type: ComponentType { .datePicker } }
    /// `toggle` (core 1.2).
    public enum Toggle: InputKind { public static var type: ComponentType { .toggle } }
}
