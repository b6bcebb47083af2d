extension JSONCalls {
    /// `lint(document, options?)`: every problem of a flow, screen or bundle document, as
    /// `parley lint --json` prints it for one file (``LintResult/json``). With
    /// `options.warnings` true, warnings (accessibility) are listed too: exactly the body of
    /// `POST /v1/flows/lint`, which the studio shows as you type.
    public static func lint(document: [UInt8], options: [UInt8]? = nil) -> [UInt8] {
        do throws(CallProblem) {
            let settings = try Self.options(options, "options")
            let warnings: Bool
            switch settings["warnings"] {
            case nil, .null: warnings = false
            case .bool(let value): warnings = value
            default: throw CallProblem("options.warnings must be true or false")
            }
            let linter = FlowLinter(includesWarnings: warnings)
            return CanonicalJSON.encode(.object(LintResult(bytes: document, linter: linter).json))
        } catch {
            return failure(error.description)
        }
    }
}
