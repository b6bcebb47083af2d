public import ParleyCore

/// An exact decimal for numeric rules and properties, written as an integer
/// literal (`3`) or a string literal (`"0.0075"`). There is deliberately no
/// floating-point literal: numbers never pass through binary floating point
/// (docs/rules.md).
public struct DecimalValue: Sendable, Hashable, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    /// The exact number.
    public let number: JSONNumber

    /// Wraps a number.
    public init(_ number: JSONNumber) { self.number = number }

    /// An integer.
    public init(integerLiteral value: Int) { number = JSONNumber(value) }

    /// A decimal in the number grammar of docs/rules.md; anything else is a programming
    /// error in a flow definition and stops the build of that flow.
    public init(stringLiteral text: String) {
        guard let number = JSONNumber(parsing: text) else {
            preconditionFailure("\"\(text)\" is not a decimal number (use e.g. \"0.25\" or \"-3\")")
        }
        self.number = number
    }
}
