import ArgumentParser
import Foundation
import ParleyPostgres

/// `parley migrate`: apply the SQL migrations in Migrations/ (or list them with `--status`).
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply the SQL migrations in Migrations/.",
        discussion: """
            Applies every pending NNNN_description.sql in order, each in a transaction, under a Postgres \
            advisory lock, and records it with its SHA-256 in schema_migrations. An applied file that \
            changed since is refused. The database comes from --database-url or PARLEY_DATABASE_URL.
            """)

    @Option(
        name: .customLong("database-url"), help: "A postgres:// URL or libpq conninfo (default: $PARLEY_DATABASE_URL).")
    var databaseURL: String?

    @Option(name: .customLong("migrations"), help: "The directory holding the .sql files.")
    var migrations: String = "Migrations"

    @Flag(name: .customLong("status"), help: "List applied and pending migrations; change nothing.")
    var status = false

    func validate() throws {
        if databaseURL == nil,
            (ProcessInfo.processInfo.environment[PostgresConfiguration.environmentVariable] ?? "").isEmpty
        {
            throw ValidationError(
                "no database: pass --database-url or set \(PostgresConfiguration.environmentVariable)")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: migrations, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw ValidationError("no migrations directory at \(migrations)")
        }
    }

    func run() async throws {
        var configuration =
            try databaseURL.map { PostgresConfiguration(url: $0) } ?? PostgresConfiguration.fromEnvironment()
        configuration.applicationName = "parley migrate"
        configuration.maximumConnections = 1
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        let migrator = Migrator(directory: URL(fileURLWithPath: migrations))
        if status {
            for entry in try await migrator.status(on: pool) {
                print("\(Self.label(entry.state))\t\(entry.fileName)")
            }
            return
        }
        let applied = try await migrator.migrate(on: pool)
        for migration in applied { print("applied\t\(migration.fileName)") }
        if applied.isEmpty { print("up to date") }
    }

    private static func label(_ state: MigrationStatus.State) -> String {
        switch state {
        case .applied(let date): return "applied \(ISO8601DateFormatter().string(from: date))"
        case .pending: return "pending"
        case .changed: return "CHANGED since applied"
        case .missingFile: return "applied, FILE MISSING"
        }
    }
}
