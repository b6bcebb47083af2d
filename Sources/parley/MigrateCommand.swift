import ArgumentParser

/// `parley migrate`: Apply the SQL migrations in Migrations/.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply the SQL migrations in Migrations/.")

    func run() async throws {
        throw ValidationError("`parley migrate` is not implemented yet")
    }
}
