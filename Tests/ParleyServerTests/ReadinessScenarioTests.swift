import Foundation
import ParleyPostgres
import Testing

/// Issue 8: `/readyz` says whether the database is reachable *and* migrated, so a
/// load balancer never sends traffic to a process on an unmigrated database.
@Suite(.timeLimit(.minutes(10)), .offCooperativePool) struct ReadinessScenarioTests {
    /// `base` pointing at `database` instead: a URL's path is replaced, conninfo gets `dbname=`.
    static func url(_ base: String, database: String) -> String {
        guard base.hasPrefix("postgres://") || base.hasPrefix("postgresql://"),
            var components = URLComponents(string: base)
        else { return "\(base) dbname=\(database)" }
        components.path = "/\(database)"
        return components.string ?? base
    }

    @Test func readyOnlyOnceMigrated() async throws {
        let pool = try await TestEnvironment.migratedPool()
        defer { pool.shutdown() }
        let name = "parley_ready_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased())"
        try await pool.query("CREATE DATABASE \(identifier: name)")
        let url = Self.url(try TestEnvironment.databaseURL(), database: name)
        let drop: PostgresQuery = "DROP DATABASE \(identifier: name) WITH (FORCE)"
        do {
            let server = try ServerProcess(databaseURL: url)
            defer { server.stop() }
            let client = RawHTTPClient(port: server.port)
            #expect(try client.send("GET", "/healthz").status == 200)
            let pending = try client.send("GET", "/readyz")
            #expect(pending.status == 503 && pending.isProblem, "\(pending)")
            #expect(pending.header("Retry-After") != nil)
            let early = try client.send("GET", "/v1/screens/anything")
            #expect(early.status == 503 && early.isProblem, "API routes say unmigrated, not 500: \(early)")
            let fresh = PostgresPool(configuration: PostgresConfiguration(url: url))
            defer { fresh.shutdown() }
            _ = try await Migrator(directory: TestEnvironment.migrations).migrate(on: fresh)
            let ready = try client.send("GET", "/readyz")
            #expect(ready.status == 200, "\(ready)")
        } catch {
            _ = try? await pool.query(drop)
            throw error
        }
        try await pool.query(drop)
    }
}
