/// An error from Postgres or from this library, with what a person needs to act on it.
///
/// A public struct over a private enum (STYLE.md), so kinds can grow without breaking
/// callers: compare ``kind`` with the static kinds, e.g. `error.kind == .uniqueViolation`.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, coarse enough to branch on.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case uniqueViolation, foreignKeyViolation, checkViolation, notNullViolation
            case serializationFailure, deadlock, connectionLost, connectionFailed
            case poolTimeout, poolClosed, syntax, decoding, migration, server, configuration, readOnlyServer
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// SQLSTATE 23505: a unique or primary-key constraint refused the row.
        public static let uniqueViolation = Kind(.uniqueViolation)
        /// SQLSTATE 23503: a foreign key refused the row.
        public static let foreignKeyViolation = Kind(.foreignKeyViolation)
        /// SQLSTATE 23514: a check constraint refused the row.
        public static let checkViolation = Kind(.checkViolation)
        /// SQLSTATE 23502: a NOT NULL column got NULL.
        public static let notNullViolation = Kind(.notNullViolation)
        /// SQLSTATE 40001: a serializable transaction lost a conflict; retry it.
        public static let serializationFailure = Kind(.serializationFailure)
        /// SQLSTATE 40P01: Postgres broke a deadlock by aborting this transaction; retry it.
        public static let deadlock = Kind(.deadlock)
        /// The connection broke while in use (server restart, `pg_terminate_backend`, network).
        public static let connectionLost = Kind(.connectionLost)
        /// SQLSTATE 25006: the server accepts only reads. With a multi-host URL and
        /// `target_session_attrs=read-write` this is a primary demoted by a switchover or a
        /// failover: the connection is discarded and the next one finds the new primary.
        public static let readOnlyServer = Kind(.readOnlyServer)
        /// A new connection could not be opened.
        public static let connectionFailed = Kind(.connectionFailed)
        /// No pooled connection became free within the configured wait.
        public static let poolTimeout = Kind(.poolTimeout)
        /// The pool was shut down.
        public static let poolClosed = Kind(.poolClosed)
        /// SQLSTATE class 42: the statement is malformed or names something unknown.
        public static let syntax = Kind(.syntax)
        /// A column could not be decoded into the requested Swift type.
        public static let decoding = Kind(.decoding)
        /// A migration file or the migration history is inconsistent.
        public static let migration = Kind(.migration)
        /// Any other error reported by the server (see ``PostgresError/sqlState``).
        public static let server = Kind(.server)
        /// The connection settings are missing or malformed.
        public static let configuration = Kind(.configuration)

        /// The kind's name, e.g. `uniqueViolation`.
        public var description: String { base.rawValue }

        /// The kind for a five-character SQLSTATE code.
        static func forSQLState(_ code: String) -> Kind {
            switch code {
            case "23505": return .uniqueViolation
            case "23503": return .foreignKeyViolation
            case "23514": return .checkViolation
            case "23502": return .notNullViolation
            case "40001": return .serializationFailure
            case "40P01": return .deadlock
            case "25006": return .readOnlyServer
            case _ where code.hasPrefix("08"), "57P01", "57P02", "57P03": return .connectionLost
            case _ where code.hasPrefix("42"): return .syntax
            default: return .server
            }
        }
    }

    /// What went wrong.
    public let kind: Kind
    /// The server's SQLSTATE code (e.g. `23505`), when the server reported one.
    public let sqlState: String?
    /// The primary message.
    public let message: String
    /// The server's detail line (e.g. which key already exists), if any.
    public let detail: String?
    /// The constraint that refused the row, if any.
    public let constraint: String?
    /// The statement, with `$n` placeholders and never the bound values.
    public let query: String?

    /// True when the connection that reported this error must not serve another statement: it
    /// broke, its server is shutting down (57P01, a switchover's fast shutdown), or the server
    /// is no longer the primary (25006). The pool then drops it, and the next connection is
    /// opened on whichever host of a multi-host URL is the primary now.
    public var discardsConnection: Bool { kind == .connectionLost || kind == .readOnlyServer }

    /// True for failures a transaction may simply be retried after.
    public var isTransient: Bool { kind == .serializationFailure || kind == .deadlock }

    init(
        _ kind: Kind, message: String, sqlState: String? = nil, detail: String? = nil, constraint: String? = nil,
        query: String? = nil
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.constraint = constraint
        self.query = query
    }

    /// A one-line summary fit for logs: kind, SQLSTATE, message, constraint, statement. Never the
    /// server's `detail` or `hint` (they quote row values: "Key (email)=(ada@example.com) already
    /// exists"), and for data exceptions (class 22) the quoted input in the message is elided, so
    /// no answer, token or id a statement carried reaches a log. ``detail`` stays available to code.
    public var description: String {
        var text = "Postgres \(kind)"
        if let sqlState { text += " [\(sqlState)]" }
        text += ": \(sqlState?.hasPrefix("22") == true ? Self.elidingQuotes(message) : message)"
        if let constraint { text += " constraint \(constraint)" }
        if let query { text += " in: \(query)" }
        return text
    }

    /// `invalid input syntax for type integer: "abc"` → `… integer: "…"`.
    static func elidingQuotes(_ message: String) -> String {
        var result = ""
        var inQuotes = false
        for character in message {
            if character == "\"" {
                result.append(inQuotes ? "…\"" : "\"")
                inQuotes.toggle()
            } else if !inQuotes {
                result.append(character)
            }
        }
        return result
    }
}
