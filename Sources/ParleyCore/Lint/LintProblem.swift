/// One problem the linter found: a stable machine code, the JSON Pointer
/// (RFC 6901) of the offending value, and a sentence a designer understands.
public struct LintProblem: Sendable, Hashable, CustomStringConvertible {
    /// Stable code, e.g. `duplicateNodeId` (documented in the README).
    public let code: String
    /// Where the problem is.
    public let pointer: JSONPointer
    /// What is wrong and how to fix it.
    public let message: String

    /// Creates a problem.
    public init(code: String, pointer: JSONPointer, message: String) {
        self.code = code
        self.pointer = pointer
        self.message = message
    }

    /// Creates a problem with one of the linter's stable codes.
    public init(_ code: LintCode, pointer: JSONPointer, message: String) {
        self.init(code: code.rawValue, pointer: pointer, message: message)
    }

    /// The code as a ``LintCode``, or `nil` for a code from elsewhere (e.g. servability checks).
    public var lintCode: LintCode? { LintCode(rawValue: code) }

    public var description: String {
        "\(pointer.description.isEmpty ? "(document)" : pointer.description): \(message) [\(code)]"
    }
}
