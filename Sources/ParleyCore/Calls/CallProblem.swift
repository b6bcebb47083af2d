/// Why a ``JSONCalls`` call cannot use its input, as a sentence (the `error` member of its result).
public struct CallProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The reason, naming the argument and, where known, the JSON Pointer at fault.
    public let description: String

    /// Creates a problem with its reason.
    public init(_ description: String) {
        self.description = description
    }
}
