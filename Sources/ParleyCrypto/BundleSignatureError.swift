/// Why a bundle signature was rejected (a public struct over a private enum).
public struct BundleSignatureError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Kind: Sendable, Equatable {
        case malformedSignature
        case digestMismatch
        case badSignature
    }

    private let kind: Kind
    /// A sentence saying what is wrong.
    public let message: String

    private init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The signature is not 64 bytes (e.g. truncated).
    public static func malformedSignature(_ message: String) -> Self { .init(.malformedSignature, message) }
    /// The bundle's digest differs from the digest that was signed.
    public static func digestMismatch(_ message: String) -> Self { .init(.digestMismatch, message) }
    /// The key does not verify the signature.
    public static func badSignature(_ message: String) -> Self { .init(.badSignature, message) }

    /// Stable code: `malformedSignature`, `digestMismatch` or `badSignature`.
    public var code: String {
        switch kind {
        case .malformedSignature: return "malformedSignature"
        case .digestMismatch: return "digestMismatch"
        case .badSignature: return "badSignature"
        }
    }

    public var description: String { message }
}
