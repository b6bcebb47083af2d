public import Foundation

/// A Swift value that can be bound as a query parameter (see ``PostgresQuery``).
public protocol PostgresEncodable: Sendable {
    /// The value as a binary-format parameter.
    var postgresBind: PostgresBind { get }
}

extension String: PostgresEncodable {
    /// `text`, as UTF-8.
    public var postgresBind: PostgresBind { PostgresBind(typeOID: PostgresBind.OID.text, bytes: Array(utf8)) }
}

extension Substring: PostgresEncodable {
    /// `text`, as UTF-8.
    public var postgresBind: PostgresBind { PostgresBind(typeOID: PostgresBind.OID.text, bytes: Array(utf8)) }
}

extension Int: PostgresEncodable {
    /// `int8`, big-endian.
    public var postgresBind: PostgresBind {
        PostgresBind(typeOID: PostgresBind.OID.int8, bytes: bigEndianBytes(Int64(self)))
    }
}

extension Int64: PostgresEncodable {
    /// `int8`, big-endian.
    public var postgresBind: PostgresBind { PostgresBind(typeOID: PostgresBind.OID.int8, bytes: bigEndianBytes(self)) }
}

extension Int32: PostgresEncodable {
    /// `int4`, big-endian.
    public var postgresBind: PostgresBind { PostgresBind(typeOID: PostgresBind.OID.int4, bytes: bigEndianBytes(self)) }
}

extension Int16: PostgresEncodable {
    /// `int2`, big-endian.
    public var postgresBind: PostgresBind { PostgresBind(typeOID: PostgresBind.OID.int2, bytes: bigEndianBytes(self)) }
}

extension Bool: PostgresEncodable {
    /// `bool`, one byte.
    public var postgresBind: PostgresBind { PostgresBind(typeOID: PostgresBind.OID.bool, bytes: [self ? 1 : 0]) }
}

extension Double: PostgresEncodable {
    /// `float8`, IEEE 754 big-endian.
    public var postgresBind: PostgresBind {
        PostgresBind(typeOID: PostgresBind.OID.float8, bytes: bigEndianBytes(bitPattern))
    }
}

extension Data: PostgresEncodable {
    /// `bytea`, raw bytes.
    public var postgresBind: PostgresBind { PostgresBind(typeOID: PostgresBind.OID.bytea, bytes: Array(self)) }
}

extension Date: PostgresEncodable {
    /// `timestamptz`: microseconds since 2000-01-01 00:00:00 UTC, big-endian.
    public var postgresBind: PostgresBind {
        let micros = ((timeIntervalSince1970 - postgresEpochOffset) * 1_000_000).rounded()
        return PostgresBind(typeOID: PostgresBind.OID.timestamptz, bytes: bigEndianBytes(Int64(micros)))
    }
}

extension UUID: PostgresEncodable {
    /// `uuid`, 16 bytes.
    public var postgresBind: PostgresBind {
        let value = uuid
        return PostgresBind(
            typeOID: PostgresBind.OID.uuid,
            bytes: withUnsafeBytes(of: value) { Array($0) })
    }
}

extension Array: PostgresEncodable where Element == String {
    /// `text[]`, one dimension, lower bound 1.
    public var postgresBind: PostgresBind {
        // Written in place into one buffer sized up front: a batch of session changes binds
        // arrays on every write.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20 + reduce(0) { $0 + 4 + $1.utf8.count })
        func append(_ value: Int32) {
            let bits = UInt32(bitPattern: value)
            bytes.append(UInt8(truncatingIfNeeded: bits >> 24))
            bytes.append(UInt8(truncatingIfNeeded: bits >> 16))
            bytes.append(UInt8(truncatingIfNeeded: bits >> 8))
            bytes.append(UInt8(truncatingIfNeeded: bits))
        }
        append(1)
        append(0)
        append(Int32(bitPattern: PostgresBind.OID.text))
        append(Int32(count))
        append(1)
        for element in self {
            append(Int32(element.utf8.count))
            bytes.append(contentsOf: element.utf8)
        }
        return PostgresBind(typeOID: PostgresBind.OID.textArray, bytes: bytes)
    }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    /// The wrapped value, or a typed `NULL`.
    public var postgresBind: PostgresBind {
        switch self {
        case .some(let value): return value.postgresBind
        case .none: return PostgresBind(typeOID: Wrapped.nullTypeOID, bytes: nil)
        }
    }
}

extension PostgresEncodable {
    /// The type OID this Swift type binds as, used for a typed `NULL`.
    static var nullTypeOID: UInt32 {
        switch Self.self {
        case is String.Type, is Substring.Type: return PostgresBind.OID.text
        case is Int.Type, is Int64.Type: return PostgresBind.OID.int8
        case is Int32.Type: return PostgresBind.OID.int4
        case is Int16.Type: return PostgresBind.OID.int2
        case is Bool.Type: return PostgresBind.OID.bool
        case is Double.Type: return PostgresBind.OID.float8
        case is Data.Type: return PostgresBind.OID.bytea
        case is Date.Type: return PostgresBind.OID.timestamptz
        case is UUID.Type: return PostgresBind.OID.uuid
        case is PostgresJSONB.Type: return PostgresBind.OID.jsonb
        case is [String].Type: return PostgresBind.OID.textArray
        default: return 0
        }
    }
}

/// Seconds from 1970-01-01 to 2000-01-01, Postgres's timestamp epoch.
let postgresEpochOffset: TimeInterval = 946_684_800

func bigEndianBytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian) { Array($0) }
}
