import ParleyCore

/// The one place `parley bundle build` asks whether a flow may ship.
enum BundleLinting {
    /// Problems in one flow document; empty means it may be bundled.
    static func problems(in flow: JSONValue) -> [LintProblem] {
        // TODO(lead): FlowLinter — switch to `FlowLinter().lint(flow: flow)` once the foundation branch lands;
        // until then only model decoding is checked.
        do {
            _ = try Flow(json: flow, at: .root)
            return []
        } catch {
            return [LintProblem(code: error.code, pointer: error.pointer, message: error.message)]
        }
    }
}
