/// A SQL statement whose interpolated values become `$1…$n` parameters, never SQL text.
///
/// ```swift
/// let rows = try await conn.query("SELECT version FROM flow_versions WHERE flow_id = \(flowID)")
/// ```
///
/// Every `\(value)` must be a ``PostgresEncodable`` and is bound by `PQexecParams`. Text that
/// must become SQL has to be asked for by name: `\(identifier: name)` quotes an identifier and
/// `\(unsafeRaw: sql)` splices text verbatim (never pass it anything a client sent). The
/// ``description`` shows the placeholders and redacts the values, so logs never carry them.
public struct PostgresQuery: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The statement with `$n` placeholders.
    public private(set) var sql: String
    /// The parameters, in placeholder order.
    public private(set) var binds: [PostgresBind]

    /// A statement with no parameters.
    public init(stringLiteral value: String) {
        sql = value
        binds = []
    }

    /// A statement built by interpolation.
    public init(stringInterpolation: StringInterpolation) {
        sql = stringInterpolation.sql
        binds = stringInterpolation.binds
    }

    /// Raw SQL text with no parameters, asked for by name because nothing checks it.
    public init(unsafeSQL: String) {
        sql = unsafeSQL
        binds = []
    }

    /// Raw SQL text with `$1…$n` placeholders and their parameters: for a statement whose text is
    /// built once (from an interpolated query's ``sql``) and run many times, so a hot path does not
    /// rebuild it.
    public init(unsafeSQL: String, binds: [PostgresBind]) {
        sql = unsafeSQL
        self.binds = binds
    }

    /// The statement with placeholders and the number of redacted values.
    public var description: String {
        binds.isEmpty ? sql : "\(sql) [\(binds.count) bound value\(binds.count == 1 ? "" : "s") redacted]"
    }

    /// Collects SQL text and parameters while a query literal is interpolated.
    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds: [PostgresBind] = []

        /// Reserves room for the literal text.
        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
            binds.reserveCapacity(interpolationCount)
        }

        /// Appends SQL text written in the source.
        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// Binds `value` as the next `$n` parameter.
        public mutating func appendInterpolation(_ value: some PostgresEncodable) {
            binds.append(value.postgresBind)
            appendPlaceholder()
        }

        /// Binds `value` as the next `$n` parameter, `NULL` when it is `nil`.
        public mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value?) {
            binds.append(value.postgresBind)
            appendPlaceholder()
        }

        /// `$n` for the bind just added, from a table for the usual counts: a session change
        /// builds about 30 of them per answer, and `"$\(n)"` formats an `Int` through a String.
        private mutating func appendPlaceholder() {
            let number = binds.count
            if number < Self.placeholders.count {
                sql += Self.placeholders[number]
            } else {
                sql += "$" + String(number)
            }
        }

        /// `"$0"` … `"$127"`.
        private static let placeholders: [String] = (0..<128).map { "$" + String($0) }

        /// Splices an identifier (table, column, channel name), double-quoted with quotes doubled.
        public mutating func appendInterpolation(identifier: String) {
            sql += PostgresQuery.quoteIdentifier(identifier)
        }

        /// Splices SQL text verbatim. Unsafe: only for text written by the programmer.
        public mutating func appendInterpolation(unsafeRaw text: String) {
            sql += text
        }
    }

    /// `name` as a quoted SQL identifier: `"a""b"` for `a"b`.
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
