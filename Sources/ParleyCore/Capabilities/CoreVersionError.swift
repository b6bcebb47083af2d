/// Why a `Parley-Core` value is not a semantic version (SemVer 2.0.0 §2, §9, §10).
///
/// The server answers a malformed header with a 400 (docs/gating.md);
/// ``message`` says what is wrong so the 400 body can too.
public struct CoreVersionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure, private so new ones can be added.
    private enum Kind: Sendable, Equatable {
        case empty
        case tooLong
        case wrongComponentCount
        case malformedNumber
        case leadingZero
        case emptyIdentifier
        case invalidCharacter
    }

    private let kind: Kind
    /// The text that failed to parse.
    public let input: String
    /// What is wrong and what was expected.
    public let message: String

    private init(_ kind: Kind, _ input: String, _ message: String) {
        self.kind = kind
        self.input = input
        self.message = message
    }

    static func empty() -> Self { .init(.empty, "", "the core version is empty; expected e.g. \"1.2.0\"") }

    static func tooLong(_ input: String) -> Self {
        .init(
            .tooLong, String(input.prefix(32)) + "…",
            "the core version is longer than \(CoreVersion.maximumLength) bytes")
    }

    static func wrongComponentCount(_ input: String) -> Self {
        .init(.wrongComponentCount, input, "\"\(input)\" must be MAJOR.MINOR.PATCH (or MAJOR.MINOR), e.g. \"1.2.0\"")
    }

    static func malformedNumber(_ input: String, _ part: Substring) -> Self {
        .init(.malformedNumber, input, "\"\(part)\" in \"\(input)\" is not a version number (ASCII digits, at most 9)")
    }

    static func leadingZero(_ input: String, _ part: Substring) -> Self {
        .init(.leadingZero, input, "\"\(part)\" in \"\(input)\" has a leading zero, which semantic versions forbid")
    }

    static func emptyIdentifier(_ input: String) -> Self {
        .init(.emptyIdentifier, input, "\"\(input)\" has an empty pre-release or build identifier")
    }

    static func invalidCharacter(_ input: String, _ part: Substring) -> Self {
        .init(
            .invalidCharacter, input,
            "identifier \"\(part)\" in \"\(input)\" may contain only ASCII letters, digits and hyphens")
    }

    /// Stable machine-readable code (`empty`, `tooLong`, `wrongComponentCount`,
    /// `malformedNumber`, `leadingZero`, `emptyIdentifier`, `invalidCharacter`).
    public var code: String {
        switch kind {
        case .empty: return "empty"
        case .tooLong: return "tooLong"
        case .wrongComponentCount: return "wrongComponentCount"
        case .malformedNumber: return "malformedNumber"
        case .leadingZero: return "leadingZero"
        case .emptyIdentifier: return "emptyIdentifier"
        case .invalidCharacter: return "invalidCharacter"
        }
    }

    public var description: String { "malformed core version: \(message)" }
}
