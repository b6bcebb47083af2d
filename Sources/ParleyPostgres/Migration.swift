public import Foundation

/// One migration file, `NNNN_description.sql`, from the migrations directory.
public struct Migration: Sendable, Hashable {
    /// The number before the first `_` (the order migrations apply in).
    public let version: Int
    /// The file name, e.g. `0001_initial_schema.sql`.
    public let fileName: String
    /// The file's bytes, sent to the server as they are.
    public let contents: Data

    /// The SQL text.
    public var sql: String { String(decoding: contents, as: UTF8.self) }

    /// A migration read from a file.
    public init(version: Int, fileName: String, contents: Data) {
        self.version = version
        self.fileName = fileName
        self.contents = contents
    }
}

/// Where one migration stands against a database (see ``Migrator/status(on:)``).
public struct MigrationStatus: Sendable, Hashable {
    /// The state of one migration.
    public enum State: Sendable, Hashable {
        /// Applied at this time, with the checksum the file still has.
        case applied(at: Date)
        /// Not applied yet.
        case pending
        /// Applied, but the file has changed since (``Migrator/migrate(on:)`` refuses to run).
        case changed
        /// Recorded as applied, but no file has this version any more.
        case missingFile
    }

    /// The migration's version number.
    public let version: Int
    /// The file name (or the name recorded when it was applied).
    public let fileName: String
    /// Where it stands.
    public let state: State
}
