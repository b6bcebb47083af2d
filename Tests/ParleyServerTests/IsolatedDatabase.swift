import Foundation
import ParleyPostgres
import ParleyServer

/// A migrated database of its own on the test cluster, for tests that act on every row (key
/// rotation, prune): on the shared database they would touch what parallel suites are using.
struct IsolatedDatabase {
    let url: String
    /// A small pool on it; shut down with ``close()``.
    let pool: PostgresPool

    /// Creates a fresh migrated database (a copy of the migrated template).
    static func create() async throws -> IsolatedDatabase {
        let url = try await TestEnvironment.migratedDatabase(prefix: "parley_test")
        var configuration = PostgresConfiguration(url: url)
        configuration.maximumConnections = 2
        configuration.connectTimeout = .seconds(5)
        return IsolatedDatabase(url: url, pool: PostgresPool(configuration: configuration))
    }

    /// `parley serve` on this database, with `environment` (e.g. its data key).
    func server(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> ServerProcess {
        try ServerProcess(arguments: arguments, databaseURL: url, environment: environment)
    }

    /// A harness over `server`, with fresh tokens of every scope.
    func harness(_ server: ServerProcess) async throws -> ServiceHarness {
        ServiceHarness(
            pool: pool, servers: [server], clients: [RawHTTPClient(port: server.port)],
            author: try await TestEnvironment.token(.author, pool: pool),
            publisher: try await TestEnvironment.token(.publish, pool: pool),
            admin: try await TestEnvironment.token(.admin, pool: pool))
    }

    /// A data key file with 32 copies of `byte` (test-only keys); returns its path.
    static func keyFile(_ byte: UInt8) -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-test-key-\(UUID().uuidString.prefix(8)).key").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: byte, count: 32))
        return path
    }

    /// Closes the pool (the database goes with the throwaway test cluster).
    func close() { pool.shutdown() }
}
