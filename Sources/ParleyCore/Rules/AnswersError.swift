/// Why a JSON value is not a valid answers object.
public struct AnswersError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the offending value is.
    public let pointer: JSONPointer
    /// What is wrong.
    public let message: String

    /// Creates an error.
    public init(pointer: JSONPointer, message: String) {
        self.pointer = pointer
        self.message = message
    }

    public var description: String { message }
}
