/// A `jsonb` value as UTF-8 JSON text: bind it to write a `jsonb` column, decode it to read one.
///
/// ParleyPostgres knows nothing about the JSON model; the service parses ``bytes`` with its
/// own parser. Postgres normalises `jsonb` (key order, whitespace), so keep canonical bytes in
/// a `bytea` column when they must round-trip exactly.
public struct PostgresJSONB: Sendable, Hashable, PostgresEncodable {
    /// The JSON text's UTF-8 bytes.
    public let bytes: [UInt8]

    /// JSON given as UTF-8 bytes (not checked here; the server rejects malformed JSON).
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// JSON given as text.
    public init(_ text: String) {
        self.bytes = Array(text.utf8)
    }

    /// The JSON text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// `jsonb` binary format: version byte 1, then the text.
    public var postgresBind: PostgresBind { PostgresBind(typeOID: PostgresBind.OID.jsonb, bytes: [1] + bytes) }
}
