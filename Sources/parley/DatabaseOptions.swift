import ArgumentParser
import Foundation
import Logging
import ParleyPostgres

/// `--database-url`, defaulting to `PARLEY_DATABASE_URL`.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "Postgres URL or libpq conninfo (default: $PARLEY_DATABASE_URL).")
    var databaseURL: String?

    @Option(
        help: ArgumentHelp(
            "Statements each database connection keeps prepared; 0 behind a transaction-pooling PgBouncer "
                + "older than 1.21, which cannot follow named statements."))
    var databasePreparedStatements = 100

    func validate() throws {
        guard (0...10_000).contains(databasePreparedStatements) else {
            throw ValidationError("--database-prepared-statements must be between 0 and 10000.")
        }
    }

    /// The URL to use; a validation error naming both sources when neither is set.
    func resolvedURL() throws -> String {
        if let databaseURL, !databaseURL.isEmpty { return databaseURL }
        if let url = ProcessInfo.processInfo.environment[PostgresConfiguration.environmentVariable], !url.isEmpty {
            return url
        }
        throw ValidationError("Set --database-url or \(PostgresConfiguration.environmentVariable).")
    }

    /// A pool on the resolved URL; its LISTEN connection uses `listenURL` when one is given.
    func makePool(maximumConnections: Int = 4, listenURL: String? = nil) throws -> PostgresPool {
        var configuration = PostgresConfiguration(url: try resolvedURL())
        configuration.maximumConnections = maximumConnections
        configuration.maximumPreparedStatements = databasePreparedStatements
        configuration.listenURL = listenURL
        var logger = Logger(label: "parley.postgres")
        logger.logLevel = .warning
        return PostgresPool(configuration: configuration, logger: logger)
    }
}
