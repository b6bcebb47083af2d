/// The parsed form of an I-Regexp (RFC 9485 §2): what the compiler turns into a program.
indirect enum IRegexpNode: Sendable, Equatable {
    /// Matches the empty string (an empty branch).
    case empty
    /// One literal scalar.
    case scalar(Unicode.Scalar)
    /// One scalar from a class (`.`, `[…]`, `\p{…}`).
    case set(IRegexpScalarSet)
    /// Pieces in sequence.
    case concatenation([IRegexpNode])
    /// Branches separated by `|`.
    case alternation([IRegexpNode])
    /// A quantified atom; `maximum == nil` is unbounded; `isRange` marks `{…}`.
    case repetition(IRegexpNode, minimum: Int, maximum: Int?, isRange: Bool)

    /// Whether a range quantifier occurs anywhere inside (docs/rules.md: no nested range quantifiers).
    var containsRangeQuantifier: Bool {
        switch self {
        case .empty, .scalar, .set: return false
        case .concatenation(let parts), .alternation(let parts): return parts.contains { $0.containsRangeQuantifier }
        case .repetition(let inner, _, _, let isRange): return isRange || inner.containsRangeQuantifier
        }
    }
}
