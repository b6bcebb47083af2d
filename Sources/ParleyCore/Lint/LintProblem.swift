/// One problem the linter found: a stable machine code, the JSON Pointer
/// (RFC 6901) of the offending value, and a sentence a designer understands.
public struct LintProblem: Sendable, Hashable, CustomStringConvertible {
    /// Stable code, e.g. `duplicateNodeId` (documented in the README).
    public let code: String
    /// Where the problem is.
    public let pointer: JSONPointer
    /// What is wrong and how to fix it.
    public let message: String
    /// Whether it refuses publishing (``LintSeverity/error``, every structural problem) or is
    /// only reported (``LintSeverity/warning``).
    public let severity: LintSeverity

    /// Creates a problem.
    public init(code: String, pointer: JSONPointer, message: String, severity: LintSeverity = .error) {
        self.code = code
        self.pointer = pointer
        self.message = message
        self.severity = severity
    }

    /// Creates a problem with one of the linter's stable codes.
    public init(_ code: LintCode, pointer: JSONPointer, message: String, severity: LintSeverity = .error) {
        self.init(code: code.rawValue, pointer: pointer, message: message, severity: severity)
    }

    /// Whether the problem refuses the document.
    public var isError: Bool { severity == .error }

    /// The code as a ``LintCode``, or `nil` for a code from elsewhere (e.g. servability checks).
    public var lintCode: LintCode? { LintCode(rawValue: code) }

    public var description: String {
        let place = pointer.description.isEmpty ? "(document)" : pointer.description
        return severity == .warning ? "\(place): warning: \(message) [\(code)]" : "\(place): \(message) [\(code)]"
    }
}

extension LintProblem {
    /// `{"code", "pointer", "message", "severity"}`: one problem as `POST /v1/flows/lint`,
    /// `parley lint --json` and the WebAssembly module's `lint` list it.
    public var json: JSONValue {
        [
            "code": .string(code), "pointer": .string(pointer.description), "message": .string(message),
            "severity": .string(severity.rawValue),
        ]
    }
}
