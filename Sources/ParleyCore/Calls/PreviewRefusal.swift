/// Why ``FlowPreview`` cannot preview a request: the server answers these as problem documents
/// (`lint-failed` 422, `malformed-body` 400), the WebAssembly module as `{"error", "problem"}`.
public enum PreviewRefusal: Error, Sendable, Equatable {
    /// The draft has lint problems (every one of them, with pointers).
    case lintFailed([LintProblem])
    /// The request is not the expected shape; the reason says what to fix.
    case malformedBody(String)

    /// The problem document (RFC 9457) the server answers with, without the members the HTTP
    /// layer adds (`instance`, request id): what the studio shows when previewing offline.
    public var problem: JSONValue {
        switch self {
        case .lintFailed(let problems):
            return [
                "type": "urn:parley:problem:lint-failed", "title": "The flow has problems", "status": 422,
                "detail": .string(
                    "\(problems.count) problem\(problems.count == 1 ? "" : "s") found; fix them and post again."),
                "problems": .array(problems.map { $0.json }),
            ]
        case .malformedBody(let detail):
            return [
                "type": "urn:parley:problem:malformed-body", "title": "The request body is not valid", "status": 400,
                "detail": .string(detail),
            ]
        }
    }

    /// The reason in one sentence.
    public var description: String {
        switch self {
        case .lintFailed(let problems): return "the flow has \(problems.count) lint problem(s)"
        case .malformedBody(let detail): return detail
        }
    }
}
