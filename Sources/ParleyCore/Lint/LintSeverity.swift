/// How much a lint problem matters (DESIGN.md "Expressions": lint problems carry a severity).
/// Errors refuse the document; warnings are reported but never block publishing.
public enum LintSeverity: String, Sendable, Hashable, CaseIterable {
    /// The document is refused.
    case error
    /// Worth a look; the document is accepted.
    case warning
}
