public import Foundation
public import ParleyPostgres
import Testing

/// The test Postgres: `PARLEY_DATABASE_URL` (deploy/test starts a throwaway cluster and sets it).
///
/// A missing URL fails the test loudly instead of skipping it (STYLE.md, convention 7).
public enum TestDatabase {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String {
            "PARLEY_DATABASE_URL is not set: run ./deploy/test, or start a cluster with "
                + "`deploy/postgres start /tmp/pg` and export PARLEY_DATABASE_URL=$(deploy/postgres url /tmp/pg)"
        }
    }

    /// The configured URL, or a recorded failure.
    public static func url() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["PARLEY_DATABASE_URL"], !url.isEmpty else {
            Issue.record(Missing())
            throw Missing()
        }
        return url
    }

    /// Settings for the configured database with small, test-friendly limits.
    public static func configuration(maximumConnections: Int = 4) throws -> PostgresConfiguration {
        var configuration = PostgresConfiguration(url: try url())
        configuration.maximumConnections = maximumConnections
        configuration.applicationName = "parley-tests"
        return configuration
    }

    /// A pool on the configured database.
    public static func pool(maximumConnections: Int = 4) throws -> PostgresPool {
        PostgresPool(configuration: try configuration(maximumConnections: maximumConnections))
    }

    /// A unique name for tables, channels and databases a test creates.
    public static func uniqueName(_ prefix: String) -> String {
        "\(prefix)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased())"
    }

    /// A fresh, empty database on the same server; returns its URL.
    public static func freshDatabase() async throws -> String {
        let name = uniqueName("parley_test")
        let pool = try pool(maximumConnections: 1)
        defer { pool.shutdown() }
        try await pool.query("CREATE DATABASE \(identifier: name)")
        return url(try url(), database: name)
    }

    /// `base` pointing at `database` instead: a URL's path is replaced, conninfo gets `dbname=`.
    public static func url(_ base: String, database: String) -> String {
        guard base.hasPrefix("postgres://") || base.hasPrefix("postgresql://"),
            var components = URLComponents(string: base)
        else { return "\(base) dbname=\(database)" }
        components.path = "/\(database)"
        return components.string ?? base
    }

    /// Root of the package checkout (for `Migrations/` and `deploy/`).
    public static var packageRoot: URL { ParleyExecutable.packageRoot }
}
