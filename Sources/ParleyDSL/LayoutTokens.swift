public import ParleyCore

/// Space between a stack's children: a token, never points (docs/wire-format.md "Screen").
public struct Spacing: Sendable, Hashable {
    /// The wire token.
    public let token: String
    private init(_ token: String) { self.token = token }

    /// No space.
    public static let none = Spacing("none")
    /// Extra small.
    public static let xs = Spacing("xs")
    /// Small.
    public static let s = Spacing("s")
    /// Medium.
    public static let m = Spacing("m")
    /// Large.
    public static let l = Spacing("l")
    /// Extra large.
    public static let xl = Spacing("xl")
}

/// Cross-axis alignment of a `vstack`'s children.
public struct HorizontalAlignment: Sendable, Hashable {
    /// The wire token.
    public let token: String
    private init(_ token: String) { self.token = token }

    /// Leading edge.
    public static let leading = HorizontalAlignment("leading")
    /// Centre.
    public static let center = HorizontalAlignment("center")
    /// Trailing edge.
    public static let trailing = HorizontalAlignment("trailing")
}

/// Cross-axis alignment of an `hstack`'s children.
public struct VerticalAlignment: Sendable, Hashable {
    /// The wire token.
    public let token: String
    private init(_ token: String) { self.token = token }

    /// Top edge.
    public static let top = VerticalAlignment("top")
    /// Centre.
    public static let center = VerticalAlignment("center")
    /// Bottom edge.
    public static let bottom = VerticalAlignment("bottom")
}

/// A text's semantic style; the renderer decides fonts.
public struct TextStyle: Sendable, Hashable {
    /// The wire token.
    public let token: String
    private init(_ token: String) { self.token = token }

    /// A screen or section title.
    public static let title = TextStyle("title")
    /// A heading.
    public static let headline = TextStyle("headline")
    /// Body copy (the default).
    public static let body = TextStyle("body")
    /// Small print.
    public static let caption = TextStyle("caption")
}

/// A child's share of its stack's main axis.
public enum Size: Sendable, Hashable {
    /// As small as its content.
    case hug
    /// All remaining space.
    case fill
    /// A share of the remaining space, relative to siblings' weights.
    case weight(Int)

    /// The wire JSON: `"hug"`, `"fill"` or `{"weight": n}`.
    public var json: JSONValue {
        switch self {
        case .hug: return "hug"
        case .fill: return "fill"
        case .weight(let weight): return ["weight": .number(JSONNumber(weight))]
        }
    }
}
