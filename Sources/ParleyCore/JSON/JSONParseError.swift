/// Why a document is not acceptable JSON, with the 1-based line and column
/// (in Unicode scalars) where the parser stopped.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of the offending byte.
    public let line: Int
    /// 1-based column, counted in Unicode scalars.
    public let column: Int
    /// Byte offset of the offending byte.
    public let offset: Int
    /// What was wrong, in words.
    public let reason: String

    public var description: String { "line \(line), column \(column): \(reason)" }
}
