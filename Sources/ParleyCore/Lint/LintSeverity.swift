/// How much a ``LintProblem`` matters: an error refuses publishing, a warning is
/// reported (by `parley lint`, `POST /v1/flows/lint` and the studio) while the flow
/// still publishes — e.g. accessibility findings unless the flow asks for
/// `"accessibility": "strict"` (issue 26).
public enum LintSeverity: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The document may not be published or bundled.
    case error
    /// Worth fixing; publishing goes ahead.
    case warning

    public var description: String { rawValue }
}

extension Sequence<LintProblem> {
    /// The problems that refuse publishing (severity ``LintSeverity/error``).
    public var errors: [LintProblem] { filter { $0.severity == .error } }
}
