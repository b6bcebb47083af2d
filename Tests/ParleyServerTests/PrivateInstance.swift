import Foundation
import ParleyPostgres
import ParleyServer

/// A Parley of its own: a private, migrated Postgres cluster, one `parley serve` on it and a
/// harness over both, for tests that stop, dump or restore the database.
struct PrivateInstance {
    let cluster: PrivateCluster
    let server: ServerProcess
    /// `harness.pool` reaches the cluster directly; `harness.client` the server.
    let harness: ServiceHarness

    /// Creates the cluster, migrates it, starts the server and makes tokens of every scope.
    static func start() async throws -> PrivateInstance {
        let cluster = try PrivateCluster.start()
        var configuration = PostgresConfiguration(url: cluster.url)
        configuration.maximumConnections = 2
        let pool = PostgresPool(configuration: configuration)
        do {
            _ = try await Migrator(directory: TestEnvironment.migrations).migrate(on: pool)
            let server = try ServerProcess(databaseURL: cluster.url)
            let harness = ServiceHarness(
                pool: pool, servers: [server], clients: [RawHTTPClient(port: server.port)],
                author: try await TestEnvironment.token(.author, pool: pool),
                publisher: try await TestEnvironment.token(.publish, pool: pool),
                admin: try await TestEnvironment.token(.admin, pool: pool))
            return PrivateInstance(cluster: cluster, server: server, harness: harness)
        } catch {
            pool.shutdown()
            cluster.destroy()
            throw error
        }
    }

    /// Stops the server, closes the pool and deletes the cluster.
    func destroy() {
        server.stop()
        harness.pool.shutdown()
        cluster.destroy()
    }
}
