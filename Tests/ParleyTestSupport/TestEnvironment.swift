public import Foundation
public import ParleyPostgres
public import ParleyServer
import Testing

/// The test Postgres (`PARLEY_DATABASE_URL`, set by deploy/test), migrated once per test process.
///
/// A missing URL fails the test loudly instead of skipping it (STYLE.md, convention 7).
public enum TestEnvironment {
    public struct MissingDatabase: Error, CustomStringConvertible {
        public var description: String {
            "PARLEY_DATABASE_URL is not set: run ./deploy/test, or `deploy/postgres start /tmp/pg-e2e` "
                + "and export the URL it prints as PARLEY_DATABASE_URL"
        }
    }

    /// Root of the package checkout (for `Migrations/`).
    public static var packageRoot: URL { ParleyExecutable.packageRoot }

    /// The repository's migrations folder.
    public static var migrations: URL { packageRoot.appendingPathComponent("Migrations") }

    /// The data key every test server seals sensitive answers with: a fixed test-only key written
    /// once per test process (never a real key; `deploy/run` makes real ones).
    public static let dataKeyFile: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-data-\(getpid()).key")
            .path
        _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x5A, count: 32))
        return path
    }()

    /// The configured database URL, or a recorded failure.
    public static func databaseURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["PARLEY_DATABASE_URL"], !url.isEmpty else {
            Issue.record(MissingDatabase())
            throw MissingDatabase()
        }
        return url
    }

    /// A small pool on the test database, migrated (see ``migrateTestDatabase()``). Shut it
    /// down when done.
    public static func migratedPool() async throws -> PostgresPool {
        try await migrateTestDatabase()
        return try pool()
    }

    /// Migrates the test database once per test process; every later caller returns at once.
    /// Whatever runs against it (a harness, an ``InProcessServer``, a `parley serve` child) calls
    /// this first: on a fresh cluster, a test that only assumed another test had migrated it
    /// answered "not migrated" 503s when it happened to run first.
    public static func migrateTestDatabase() async throws { try await migration.value() }

    private static let migration = OncePerProcess<Void> {
        let migrating = try pool()
        defer { migrating.shutdown() }
        _ = try await Migrator(directory: migrations).migrate(on: migrating)
    }

    /// A new database on the test cluster, named `<prefix>_<unique>`, migrated: a copy of a
    /// template this process migrates once (`CREATE DATABASE … TEMPLATE`), which takes a fraction
    /// of the time of applying every migration to each new database. Returns its URL.
    public static func migratedDatabase(prefix: String) async throws -> String {
        let template = try await template.value()
        let name = TestDatabase.uniqueName(prefix)
        let admin = try pool()
        defer { admin.shutdown() }
        try await admin.query("CREATE DATABASE \(identifier: name) TEMPLATE \(identifier: template)")
        return TestDatabase.url(try databaseURL(), database: name)
    }

    /// The migrated template's name (``migratedDatabase(prefix:)``).
    private static let template = OncePerProcess<String> {
        let name = TestDatabase.uniqueName("parley_template")
        let admin = try pool()
        defer { admin.shutdown() }
        try await admin.query("CREATE DATABASE \(identifier: name)")
        var configuration = PostgresConfiguration(url: TestDatabase.url(try databaseURL(), database: name))
        configuration.maximumConnections = 1
        configuration.connectTimeout = .seconds(5)
        let migrating = PostgresPool(configuration: configuration)
        do {
            _ = try await Migrator(directory: migrations).migrate(on: migrating)
        } catch {
            migrating.shutdown()
            throw error
        }
        // A template must have no session: copying waits for the pool's to end.
        migrating.shutdown()
        return name
    }

    private static func pool() throws -> PostgresPool {
        var configuration = PostgresConfiguration(url: try databaseURL())
        configuration.maximumConnections = 2
        configuration.applicationName = "parley-server-tests"
        configuration.connectTimeout = .seconds(5)
        return PostgresPool(configuration: configuration)
    }

    /// A token with one scope under a unique name; returns the secret.
    public static func token(_ scope: AccessScope, pool: PostgresPool) async throws -> String {
        let name = "test-\(scope.rawValue)-\(UUID().uuidString.prefix(12).lowercased())"
        let token = try await AccessStore(pool: pool).createToken(name: name, scopes: [scope])
        UsedSecrets.record("token", token)
        return token
    }
}
