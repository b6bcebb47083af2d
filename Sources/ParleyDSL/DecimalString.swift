import ParleyCore

/// An exact decimal written as a string literal (`"10000"`, `"0.25"`), as the wire writes a
/// predicate's comparison bound (docs/expressions.md). Unlike ``DecimalValue`` it takes no
/// integer literal either: a comparison reads like the JSON it builds, and no number passes
/// through a binary type on its way there.
public struct DecimalString: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The number as written.
    public let text: String

    /// A decimal in the number grammar of docs/rules.md; anything else is a programming error in a flow
    /// definition and stops the build of that flow.
    public init(stringLiteral text: String) {
        precondition(JSONNumber(parsing: text) != nil, "\"\(text)\" is not a decimal number (use e.g. \"10000\")")
        self.text = text
    }
}
