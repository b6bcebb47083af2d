import Foundation
import ParleyPostgres

/// Whether the database is ready to serve: reachable, and every migration in the configured
/// folder applied (`GET /readyz`).
struct MigrationReadiness: Sendable {
    let pool: PostgresPool
    let migrationsDirectory: String

    /// Migrations in the configured folder that the database has not applied
    /// (or whose file changed since); throws when the database is unreachable.
    func pendingMigrations() async throws -> Int {
        let migrator = Migrator(directory: URL(fileURLWithPath: migrationsDirectory))
        let statuses = try await migrator.status(on: pool)
        return statuses.filter { status in
            switch status.state {
            case .applied: return false
            case .pending, .changed, .missingFile: return true
            }
        }.count
    }
}
