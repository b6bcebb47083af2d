/// The outcome of linting one JSON document, in the form `parley lint --json` prints for
/// a file and the `lint` call of ``JSONCalls`` returns: one place, so both agree byte for byte.
public struct LintResult: Sendable {
    /// Problems found; empty when the document is clean or could not be linted.
    public var problems: [LintProblem]
    /// For a flow that decodes: which steps each core version renders natively, via
    /// fallbacks, via the upgrade screen, or not at all.
    public var servability: ServabilityMatrix?
    /// Why the document could not be linted at all (not JSON), if so.
    public var error: String?

    /// Creates a result from its parts.
    public init(problems: [LintProblem] = [], servability: ServabilityMatrix? = nil, error: String? = nil) {
        self.problems = problems
        self.servability = servability
        self.error = error
    }

    /// Parses and lints one document; its kind (flow, screen, bundle) comes from its `schema`.
    public init(bytes: [UInt8], linter: FlowLinter = FlowLinter()) {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            self.init(error: "not valid JSON at \(error.description)")
            return
        }
        let problems = linter.lint(document: document)
        let flow = FlowLinter.documentKind(of: document) == "flow" ? try? Flow(json: document, at: .root) : nil
        self.init(problems: problems, servability: flow.map { Servability().analyze($0) })
    }

    /// Whether the document was linted and nothing refuses it (warnings never do).
    public var isValid: Bool { error == nil && !problems.contains(where: { $0.isError }) }

    /// `{"valid", "problems": [{"code", "pointer", "message", "severity"}], "servability"?, "error"?}`.
    public var json: JSONObject {
        var object = JSONObject()
        object["valid"] = .bool(isValid)
        object["problems"] = .array(problems.map { $0.json })
        if let servability { object["servability"] = servability.json }
        if let error { object["error"] = .string(error) }
        return object
    }
}
