/// A node's component type (docs/wire-format.md "Component vocabulary").
///
/// Types this core does not know decode to ``unknown(_:)`` with their raw name,
/// so decoding never fails because a document is newer than the decoder.
public enum ComponentType: Sendable, Hashable, CustomStringConvertible {
    /// A vertical stack of children (core 1.0).
    case vstack
    /// A horizontal stack of children (core 1.0).
    case hstack
    /// Text a person reads; `markdown` arrived in core 2.0 (core 1.0).
    case text
    /// An image by URL, with its aspect ratio and alternative text (core 1.0).
    case image
    /// A button that runs an action (core 1.0).
    case button
    /// A free-text input (core 1.0).
    case textField
    /// A choice among `options`, as a menu or list (core 1.0).
    case picker
    /// Flexible empty space between siblings (core 1.0).
    case spacer
    /// A separating line (core 1.0).
    case divider
    /// A choice among `options`, shown as tappable replies (core 1.1).
    case quickReplies
    /// A grouped card with title, subtitle, image and children (core 1.1).
    case card
    /// A calendar date input; the answer is an RFC 3339 full-date (core 1.2).
    case datePicker
    /// An on/off input (core 1.2).
    case toggle
    /// Children scrolled horizontally one page at a time (core 2.0).
    case carousel
    /// Children laid out in `columns` (core 2.0).
    case grid
    /// A type this core does not know, with its wire name.
    case unknown(String)

    /// Every type this core knows, in vocabulary order.
    public static let known: [ComponentType] = [
        .vstack, .hstack, .text, .image, .button, .textField, .picker, .spacer, .divider,
        .quickReplies, .card, .datePicker, .toggle, .carousel, .grid,
    ]

    /// The type for a wire name.
    public init(name: String) {
        self = Self.known.first { $0.name.isScalarEqual(to: name) } ?? .unknown(name)
    }

    /// The wire name.
    public var name: String {
        switch self {
        case .vstack: return "vstack"
        case .hstack: return "hstack"
        case .text: return "text"
        case .image: return "image"
        case .button: return "button"
        case .textField: return "textField"
        case .picker: return "picker"
        case .spacer: return "spacer"
        case .divider: return "divider"
        case .quickReplies: return "quickReplies"
        case .card: return "card"
        case .datePicker: return "datePicker"
        case .toggle: return "toggle"
        case .carousel: return "carousel"
        case .grid: return "grid"
        case .unknown(let name): return name
        }
    }

    /// Whether nodes of this type collect an answer (carry `fieldId` and `validation`).
    public var isInput: Bool {
        switch self {
        case .textField, .picker, .quickReplies, .datePicker, .toggle: return true
        default: return false
        }
    }

    /// Whether nodes of this type may have children.
    public var isContainer: Bool {
        switch self {
        case .vstack, .hstack, .card, .carousel, .grid: return true
        default: return false
        }
    }

    /// Whether this core knows the type.
    public var isKnown: Bool {
        if case .unknown = self { return false }
        return true
    }

    public var description: String { name }
}
