import Foundation
import ParleyPostgres

extension ServiceContext {
    /// Migrations in the configured folder that the database has not applied
    /// (or whose file changed since); throws when the database is unreachable.
    func pendingMigrations() async throws -> Int {
        let migrator = Migrator(directory: URL(fileURLWithPath: configuration.migrationsDirectory))
        let statuses = try await migrator.status(on: pool)
        return statuses.filter { status in
            switch status.state {
            case .applied: return false
            case .pending, .changed, .missingFile: return true
            }
        }.count
    }
}
