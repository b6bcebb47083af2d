public import Foundation

/// Applies `Migrations/NNNN_description.sql` files in order, each in its own transaction,
/// under a Postgres advisory lock, recording each in `schema_migrations` with the SHA-256
/// of its bytes (DESIGN.md "Storage"). Two processes migrating at once apply each file
/// exactly once; an applied file that later changed is refused.
public struct Migrator: Sendable {
    /// The directory holding the `.sql` files.
    public let directory: URL

    /// The advisory lock key every Parley migrator takes (`pg_advisory_lock`).
    public static let advisoryLockKey: Int64 = 0x7061_726c_6579_6d67  // "parleymg"

    /// A migrator for the files in `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The migration files, sorted by version; throws on a malformed name or duplicate version.
    public func migrations() throws -> [Migration] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw PostgresError(.migration, message: "cannot read the migrations directory \(directory.path)")
        }
        var migrations: [Migration] = []
        for name in names.sorted() where name.hasSuffix(".sql") {
            let digits = name.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, name.dropFirst(digits.count).first == "_", let version = Int(digits) else {
                throw PostgresError(
                    .migration, message: "migration file \(name) is not named NNNN_description.sql")
            }
            if let clash = migrations.first(where: { $0.version == version }) {
                throw PostgresError(
                    .migration, message: "migrations \(clash.fileName) and \(name) share version \(version)")
            }
            let contents = try Data(contentsOf: directory.appendingPathComponent(name))
            migrations.append(Migration(version: version, fileName: name, contents: contents))
        }
        return migrations.sorted { $0.version < $1.version }
    }

    /// Applies every pending migration and returns those it applied (empty when up to date).
    @discardableResult
    public func migrate(on pool: PostgresPool) async throws -> [Migration] {
        let files = try migrations()
        return try await pool.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(\(Self.advisoryLockKey))")
            do {
                let applied = try await apply(files, on: connection)
                try await connection.query("SELECT pg_advisory_unlock(\(Self.advisoryLockKey))")
                return applied
            } catch {
                if connection.isOpen {
                    _ = try? await connection.query("SELECT pg_advisory_unlock(\(Self.advisoryLockKey))")
                }
                throw error
            }
        }
    }

    /// Every migration's state, file versions and recorded versions merged in order.
    public func status(on pool: PostgresPool) async throws -> [MigrationStatus] {
        let files = try migrations()
        return try await pool.withConnection { connection in
            // Reads only: creating the table here could race a concurrent `migrate`.
            let exists = try await connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS present")
            let recorded = try await exists[0].decode(Bool.self, column: "present") ? history(on: connection) : [:]
            var statuses: [MigrationStatus] = []
            for file in files {
                let state: MigrationStatus.State
                if let record = recorded[file.version] {
                    let checksum = try await self.checksum(of: file, on: connection)
                    state = record.checksum == checksum ? .applied(at: record.appliedAt) : .changed
                } else {
                    state = .pending
                }
                statuses.append(MigrationStatus(version: file.version, fileName: file.fileName, state: state))
            }
            for (version, record) in recorded where !files.contains(where: { $0.version == version }) {
                statuses.append(MigrationStatus(version: version, fileName: record.fileName, state: .missingFile))
            }
            return statuses.sorted { $0.version < $1.version }
        }
    }

    private func apply(_ files: [Migration], on connection: PostgresConnection) async throws -> [Migration] {
        try await createHistoryTable(on: connection)
        let recorded = try await history(on: connection)
        var checksums: [Int: String] = [:]
        for file in files {
            let checksum = try await self.checksum(of: file, on: connection)
            checksums[file.version] = checksum
            if let record = recorded[file.version], record.checksum != checksum {
                throw PostgresError(
                    .migration,
                    message: "migration \(file.fileName) was applied with checksum \(record.checksum) but the file "
                        + "now has \(checksum); applied migrations must never change: restore the file and put "
                        + "the change in a new migration")
            }
        }
        if let missing = recorded.first(where: { record in !files.contains { $0.version == record.key } }) {
            throw PostgresError(
                .migration,
                message:
                    "migration \(missing.value.fileName) is recorded as applied but is missing from \(directory.path)")
        }
        var applied: [Migration] = []
        for file in files where recorded[file.version] == nil {
            try await connection.withTransaction { connection in
                do {
                    try await connection.execute(unsafeScript: file.sql)
                } catch let error as PostgresError {
                    throw PostgresError(
                        .migration, message: "migration \(file.fileName) failed: \(error.message)",
                        sqlState: error.sqlState, detail: error.detail, constraint: error.constraint)
                }
                try await connection.query(
                    """
                    INSERT INTO schema_migrations (version, file_name, checksum)
                    VALUES (\(file.version), \(file.fileName), \(checksums[file.version]!))
                    """)
            }
            applied.append(file)
        }
        return applied
    }

    private func createHistoryTable(on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version integer PRIMARY KEY,
                file_name text NOT NULL,
                checksum text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
    }

    private func history(
        on connection: PostgresConnection
    ) async throws -> [Int: (fileName: String, checksum: String, appliedAt: Date)] {
        var records: [Int: (fileName: String, checksum: String, appliedAt: Date)] = [:]
        for row in try await connection.query("SELECT version, file_name, checksum, applied_at FROM schema_migrations")
        {
            records[try row.decode(Int.self, column: "version")] = (
                try row.decode(String.self, column: "file_name"), try row.decode(String.self, column: "checksum"),
                try row.decode(Date.self, column: "applied_at")
            )
        }
        return records
    }

    /// SHA-256 of the file's bytes, hex, computed by the server (this target links no crypto).
    private func checksum(of file: Migration, on connection: PostgresConnection) async throws -> String {
        let rows = try await connection.query("SELECT encode(sha256(\(file.contents)), 'hex') AS checksum")
        return try rows[0].decode(String.self, column: "checksum")
    }
}
