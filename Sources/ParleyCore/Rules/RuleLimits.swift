/// Every limit of the rule interpreter, in one place (STYLE.md, convention 5).
///
/// These are part of the cross-platform contract: a Rust or Kotlin core must
/// apply the same numbers, and the conformance vectors pin them.
public enum RuleLimits {
    /// Longest accepted I-Regexp, in Unicode scalars (docs/rules.md): 1,000.
    public static let maximumPatternScalars = 1_000
    /// Largest accepted bound in a range quantifier `{n,m}`: 1,000.
    public static let maximumRangeBound = 1_000
    /// Largest exponent magnitude, as written, of a numeric answer or parameter:
    /// 10^12 (``JSONNumber/maximumExponentMagnitude``). A value such as
    /// `1e1000000000001` matches the number grammar but is refused with a
    /// `number` error; `1e999999999` is accepted and compares exactly.
    public static let maximumExponentMagnitude = JSONNumber.maximumExponentMagnitude
}
