extension JSONCalls {
    /// `lint(document)`: every problem of a flow, screen or bundle document, as
    /// `parley lint --json` prints it for one file (``LintResult/json``).
    public static func lint(document: [UInt8]) -> [UInt8] {
        CanonicalJSON.encode(.object(LintResult(bytes: document).json))
    }
}
