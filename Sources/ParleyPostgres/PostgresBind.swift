/// One bound parameter as sent to the server: its type OID and its binary-format bytes.
///
/// Parameters travel in Postgres's binary format (`paramFormats = 1`), so no value is ever
/// parsed as SQL text.
public struct PostgresBind: Sendable, Hashable {
    /// The parameter's type OID (e.g. 25 for `text`); 0 lets the server infer it.
    public let typeOID: UInt32
    /// The binary-format value, or `nil` for SQL `NULL`: a slice, so several parameters can
    /// share one buffer (``PostgresTextArray/binds``: a batch's columns in one allocation).
    let value: ArraySlice<UInt8>?

    /// The binary-format value, or `nil` for SQL `NULL`.
    public var bytes: [UInt8]? { value.map { Array($0) } }

    /// A value of type `typeOID` in Postgres's binary format, or `NULL` when `bytes` is `nil`.
    public init(typeOID: UInt32, bytes: [UInt8]?) {
        self.typeOID = typeOID
        value = bytes?[...]
    }

    /// A value held in part of a buffer other values share.
    init(typeOID: UInt32, value: ArraySlice<UInt8>) {
        self.typeOID = typeOID
        self.value = value
    }

    /// Well-known type OIDs (`pg_type.oid`).
    public enum OID {
        /// `bool`
        public static let bool: UInt32 = 16
        /// `bytea`
        public static let bytea: UInt32 = 17
        /// `int8`
        public static let int8: UInt32 = 20
        /// `int2`
        public static let int2: UInt32 = 21
        /// `int4`
        public static let int4: UInt32 = 23
        /// `text`
        public static let text: UInt32 = 25
        /// `float8`
        public static let float8: UInt32 = 701
        /// `timestamptz`
        public static let timestamptz: UInt32 = 1184
        /// `uuid`
        public static let uuid: UInt32 = 2950
        /// `jsonb`
        public static let jsonb: UInt32 = 3802
        /// `text[]`
        public static let textArray: UInt32 = 1009
    }
}
