/// Why a pattern is not an acceptable I-Regexp (RFC 9485, plus docs/rules.md's
/// publish-time limits and its refusal of unescaped `^` and `$`).
public struct IRegexpSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Offset of the offending character, in Unicode scalars from the start of the pattern.
    public let position: Int
    /// A sentence saying what is wrong and how to fix it.
    public let reason: String

    /// Creates an error.
    public init(position: Int, reason: String) {
        self.position = position
        self.reason = reason
    }

    public var description: String { "at character \(position): \(reason)" }
}
