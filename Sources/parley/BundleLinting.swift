import ParleyCore

/// The one place `parley bundle build` asks whether a flow may ship.
enum BundleLinting {
    /// Problems in one flow document (ParleyCore's ``FlowLinter``, the same
    /// checks as `parley lint` and the publish endpoint); empty means it may be bundled.
    static func problems(in flow: JSONValue) -> [LintProblem] {
        FlowLinter().lint(flow: flow)
    }

    /// Bundle-level problems (every flow again, flow ids unique, bundle limits).
    static func problems(inBundle bundle: JSONValue) -> [LintProblem] {
        FlowLinter().lint(bundle: bundle)
    }
}
