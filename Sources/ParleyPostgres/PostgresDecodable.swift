public import Foundation

/// A Swift type a result column can be decoded into (see ``PostgresRow/decode(_:column:)``).
///
/// Results arrive in Postgres's text format (with `DateStyle=ISO`, `TimeZone=UTC`,
/// `bytea_output=hex` set on every connection), so `String` can read any column.
public protocol PostgresDecodable: Sendable {
    /// Decodes a non-NULL value; throws a ``PostgresDecodingFailure`` saying what was expected.
    static func decode(postgresText text: [UInt8], typeOID: UInt32) throws -> Self
    /// Decodes a non-NULL value read in place from libpq's result (valid only during the call).
    /// By default a copy decoded with ``decode(postgresText:typeOID:)``; the types a session's
    /// fold reads (strings, integers, doubles, JSON) decode it without that copy: an array per
    /// cell was ~25 allocations a cold answer (issue 27).
    static func decode(postgresBytes bytes: UnsafeRawBufferPointer, typeOID: UInt32) throws -> Self
    /// The value for SQL `NULL`, or `nil` when the type cannot represent it.
    static var postgresNull: Self? { get }
}

extension PostgresDecodable {
    /// Non-optional types have no value for `NULL`.
    public static var postgresNull: Self? { nil }

    /// A copy of the bytes, decoded as text.
    public static func decode(postgresBytes bytes: UnsafeRawBufferPointer, typeOID: UInt32) throws -> Self {
        try decode(postgresText: Array(bytes), typeOID: typeOID)
    }
}

/// Why a column's text could not become the requested type (wrapped with the column's name).
public struct PostgresDecodingFailure: Error, Sendable {
    /// What was expected, e.g. `an integer`.
    public let expected: String
    /// Creates a failure saying what the text should have been.
    public init(expected: String) {
        self.expected = expected
    }
}

extension String: PostgresDecodable {
    /// Any column, as its text form.
    public static func decode(postgresText text: [UInt8], typeOID: UInt32) throws -> String {
        String(decoding: text, as: UTF8.self)
    }

    /// Any column, its text copied once, into the string.
    public static func decode(postgresBytes bytes: UnsafeRawBufferPointer, typeOID: UInt32) throws -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

extension Int: PostgresDecodable {
    /// `int2`, `int4`, `int8` (or any integer text).
    public static func decode(postgresText text: [UInt8], typeOID: UInt32) throws -> Int {
        try text.withUnsafeBytes { try decode(postgresBytes: $0, typeOID: typeOID) }
    }

    /// Digits with an optional sign, read in place (no `String` first).
    public static func decode(postgresBytes bytes: UnsafeRawBufferPointer, typeOID: UInt32) throws -> Int {
        let failure = PostgresDecodingFailure(expected: "an integer")
        var index = 0
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            index = 1
        }
        guard index < bytes.count else { throw failure }
        // Accumulated negatively, so `Int.min` reads as itself.
        var value = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { throw failure }
            let (scaled, overflowScale) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAdd) = scaled.subtractingReportingOverflow(Int(digit))
            guard !overflowScale, !overflowAdd else { throw failure }
            value = next
            index += 1
        }
        if negative { return value }
        guard value != .min else { throw failure }
        return -value
    }
}

extension Int64: PostgresDecodable {
    /// `int2`, `int4`, `int8`.
    public static func decode(postgresText text: [UInt8], typeOID: UInt32) throws -> Int64 {
        Int64(try Int.decode(postgresText: text, typeOID: typeOID))
    }
}

extension Int32: PostgresDecodable {
    /// `int2`, `int4`, or an `int8` within range.
    public static func decode(postgresText text: [UInt8], typeOID: UInt32) throws -> Int32 {
        guard let value = Int32(exactly: try Int.decode(postgresText: text, typeOID: typeOID)) else {
            throw PostgresDecodingFailure(expected: "a 32-bit integer")
        }
        return value
    }
}

extension Bool: PostgresDecodable {
    /// `bool` (`t` or `f`).
    public static func decode(postgresText text: [UInt8], typeOID: UInt32) throws -> Bool {
        switch text {
        case [UInt8(ascii: "t")]: return true
        case [UInt8(ascii: "f")]: return false
        default: throw PostgresDecodingFailure(expected: "a boolean (t or f)")
        }
    }
}

extension Double: PostgresDecodable {
    /// `float4`, `float8`, `numeric` (rounded to the nearest double).
    public static func decode(postgresText text: [UInt8], typeOID: UInt32) throws -> Double {
        guard let value = Double(String(decoding: text, as: UTF8.self)) else {
            throw PostgresDecodingFailure(expected: "a floating-point number")
        }
        return value
    }

    /// Read through a string made from the bytes in place (no array first).
    public static func decode(postgresBytes bytes: UnsafeRawBufferPointer, typeOID: UInt32) throws -> Double {
        let value = Double(String(decoding: bytes, as: UTF8.self))
        guard let value else { throw PostgresDecodingFailure(expected: "a floating-point number") }
        return value
    }
}

extension Data: PostgresDecodable {
    /// `bytea` in hex output format (`\x…`).
    public static func decode(postgresText text: [UInt8], typeOID: UInt32) throws -> Data {
        Data(try decodeHexBytea(text))
    }
}

extension UUID: PostgresDecodable {
    /// `uuid`.
    public static func decode(postgresText text: [UInt8], typeOID: UInt32) throws -> UUID {
        guard let value = UUID(uuidString: String(decoding: text, as: UTF8.self)) else {
            throw PostgresDecodingFailure(expected: "a UUID")
        }
        return value
    }
}

extension PostgresJSONB: PostgresDecodable {
    /// `json` or `jsonb`, as the server prints it.
    public static func decode(postgresText text: [UInt8], typeOID: UInt32) throws -> PostgresJSONB {
        PostgresJSONB(bytes: text)
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    /// The wrapped type's decoding.
    public static func decode(postgresText text: [UInt8], typeOID: UInt32) throws -> Wrapped? {
        try Wrapped.decode(postgresText: text, typeOID: typeOID)
    }

    /// The wrapped type's decoding in place.
    public static func decode(postgresBytes bytes: UnsafeRawBufferPointer, typeOID: UInt32) throws -> Wrapped? {
        try Wrapped.decode(postgresBytes: bytes, typeOID: typeOID)
    }

    /// `nil` stands for `NULL`.
    public static var postgresNull: Wrapped?? { .some(nil) }
}
