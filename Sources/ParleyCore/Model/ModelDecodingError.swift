/// Why a JSON value is not a valid Parley document, with the JSON Pointer to
/// the offending value (STYLE.md, convention 6).
public struct ModelDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure, kept private so new ones can be added.
    private enum Kind: Sendable, Equatable {
        case missing
        case wrongType
        case invalidValue
        case unsupportedSchema
        case notJSON
    }

    private let kind: Kind
    /// Where in the document the problem is.
    public let pointer: JSONPointer
    /// A sentence saying what is wrong and what was expected.
    public let message: String

    private init(_ kind: Kind, _ pointer: JSONPointer, _ message: String) {
        self.kind = kind
        self.pointer = pointer
        self.message = message
    }

    /// A required member is absent.
    public static func missing(_ pointer: JSONPointer, _ message: String) -> Self { .init(.missing, pointer, message) }
    /// A value has the wrong JSON type.
    public static func wrongType(_ pointer: JSONPointer, _ message: String) -> Self {
        .init(.wrongType, pointer, message)
    }
    /// A value has the right type but is not acceptable.
    public static func invalidValue(_ pointer: JSONPointer, _ message: String) -> Self {
        .init(.invalidValue, pointer, message)
    }
    /// The document's `schema` is missing, malformed or of an unknown major version.
    public static func unsupportedSchema(_ pointer: JSONPointer, _ message: String) -> Self {
        .init(.unsupportedSchema, pointer, message)
    }
    /// The bytes are not JSON at all.
    public static func notJSON(_ error: JSONParseError) -> Self {
        .init(.notJSON, .root, "not valid JSON: \(error)")
    }

    /// Stable machine-readable code (`missing`, `wrongType`, `invalidValue`, `unsupportedSchema`, `notJSON`).
    public var code: String {
        switch kind {
        case .missing: return "missing"
        case .wrongType: return "wrongType"
        case .invalidValue: return "invalidValue"
        case .unsupportedSchema: return "unsupportedSchema"
        case .notJSON: return "notJSON"
        }
    }

    public var description: String {
        let location = pointer.description.isEmpty ? "(document)" : pointer.description
        return "\(location): \(message)"
    }
}
