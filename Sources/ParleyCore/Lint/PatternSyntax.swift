/// Publish-time check of a `pattern` rule's I-Regexp (docs/rules.md).
/// The linter calls this; the rule interpreter owns the parser.
public enum PatternSyntax {
    /// A sentence saying why `pattern` is not an acceptable I-Regexp, or `nil` when it is.
    ///
    /// Checks RFC 9485's grammar, the limits in ``RuleLimits`` (at most 1,000
    /// scalars, range bounds at most 1,000, no nested range quantifiers) and
    /// refuses unescaped `^` and `$`. The sentence names the scalar position.
    public static func problem(in pattern: String) -> String? {
        IRegexp.syntaxError(in: pattern).map { "invalid I-Regexp \($0)" }
    }
}
