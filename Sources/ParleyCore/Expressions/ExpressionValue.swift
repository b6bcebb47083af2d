/// What an expression yields (docs/expressions.md): a string or *empty*, the same notion as
/// an empty answer (absent, or only U+0009, U+000A, U+000D, U+0020).
///
/// An enum rather than `String?` so values can grow without changing every signature: repeatable
/// groups (docs/expressions.md "Ahead") will add a list of item values beside these two.
public enum ExpressionValue: Sendable, Hashable, CustomStringConvertible {
    /// No value.
    case empty
    /// A non-empty string (never only whitespace: such text is ``empty``).
    case text(String)

    /// A value from text: whitespace-only or `nil` text is ``empty``.
    public init(_ text: String?) {
        if let text, !Answers.isEmpty(text) { self = .text(text) } else { self = .empty }
    }

    /// The text, or `nil` when empty.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// Whether the value is empty.
    public var isEmpty: Bool { self == .empty }

    /// The wire form: the string, or `null` when empty.
    public var json: JSONValue { text.map(JSONValue.string) ?? .null }

    public var description: String { text ?? "(empty)" }

    public static func == (lhs: ExpressionValue, rhs: ExpressionValue) -> Bool {
        switch (lhs, rhs) {
        case (.empty, .empty): return true
        case (.text(let a), .text(let b)): return a.isScalarEqual(to: b)
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .empty: hasher.combine(0)
        case .text(let text): hasher.combine(ScalarKey(text))
        }
    }
}
