/// A top-level wire document that carries a `schema` (screen, flow, bundle).
public protocol ParleyDocument: JSONRepresentable {}

/// A value with a wire form: decoded from and encoded to ``JSONValue``.
///
/// The exact path is ``decode(_:)`` / ``canonicalBytes``; `Codable` is offered
/// on top of it for convenience (see `JSONRepresentable+Codable.swift`) wherever
/// the standard library has it (``CodableWhereAvailable``).
public protocol JSONRepresentable: Sendable, CodableWhereAvailable {
    /// Decodes from a JSON value located at `pointer` in its document.
    init(json: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError)
    /// The wire JSON.
    var json: JSONValue { get }
}

extension JSONRepresentable {
    /// Parses UTF-8 JSON bytes and decodes the document.
    public static func decode(_ bytes: [UInt8], limits: JSONParser.Limits = .init()) throws(ModelDecodingError) -> Self
    {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, limits: limits)
        } catch {
            throw .notJSON(error)
        }
        return try Self(json: value, at: .root)
    }

    /// Parses a JSON string and decodes the document.
    public static func decode(_ text: String) throws(ModelDecodingError) -> Self {
        try decode(Array(text.utf8))
    }

    /// Canonical JSON bytes of the document (sorted keys, no whitespace).
    public var canonicalBytes: [UInt8] { CanonicalJSON.encode(json) }

    /// Canonical JSON text of the document.
    public var canonicalString: String { CanonicalJSON.string(json) }
}
