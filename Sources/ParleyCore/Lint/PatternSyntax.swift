/// Publish-time check of a `pattern` rule's I-Regexp (DESIGN.md "Rule
/// interpreter"). The linter calls this; the rule interpreter owns the parser.
public enum PatternSyntax {
    /// A sentence saying why `pattern` is not an acceptable I-Regexp, or `nil` when it is.
    public static func problem(in pattern: String) -> String? {
        nil
    }
}
