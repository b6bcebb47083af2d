import Foundation
import ParleyPostgres
import Testing

/// Issue 16's production shape on loopback: `parley serve` replicas whose pools go through
/// PgBouncer (transaction pooling) and whose LISTEN goes straight to Postgres
/// (`PARLEY_LISTEN_DATABASE_URL`), behind HAProxy health-checking `/readyz`.
struct ProxiedReplicas {
    /// The harness: `clients[0]` goes through HAProxy, `clients[1…]` to each replica directly.
    let harness: ServiceHarness
    /// The replicas, in `clients[1…]` order.
    let replicas: [ServerProcess]
    /// PgBouncer's URL.
    let bouncerURL: String
    let directory: String

    /// The client through HAProxy.
    var proxy: RawHTTPClient { harness.clients[0] }

    /// Starts PgBouncer, `count` replicas and HAProxy on the test database (migrated directly:
    /// the migrator's session-level advisory lock needs a session of its own).
    static func start(count: Int) async throws -> ProxiedReplicas {
        let pool = try await TestEnvironment.migratedPool()
        let direct = try TestEnvironment.databaseURL()
        // What parley asks for with libpq's `options` (PgBouncer cannot pass it on) is the
        // database's default instead, as an operator running PgBouncer sets it.
        for setting in [
            "TimeZone = 'UTC'", "DateStyle = 'ISO, YMD'", "bytea_output = 'hex'", "IntervalStyle = 'iso_8601'",
        ] {
            try await pool.query(PostgresQuery(unsafeSQL: "ALTER DATABASE \(Self.databaseName(direct)) SET \(setting)"))
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-proxies-\(UUID().uuidString.prefix(8))").path
        var replicas: [ServerProcess] = []
        do {
            let bouncer = try DeployScript.run("proxies", ["pgbouncer", directory, direct])
                .trimmingCharacters(in: .whitespacesAndNewlines)
            for _ in 0..<count {
                replicas.append(
                    try ServerProcess(
                        arguments: ["--database-prepared-statements", "0"], databaseURL: bouncer,
                        environment: ["PARLEY_LISTEN_DATABASE_URL": direct]))
            }
            let port = try DeployScript.run("proxies", ["haproxy", directory] + replicas.map { String($0.port) })
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let proxy = RawHTTPClient(port: try #require(UInt16(port)))
            let harness = ServiceHarness(
                pool: pool, servers: replicas, clients: [proxy] + replicas.map { RawHTTPClient(port: $0.port) },
                author: try await TestEnvironment.token(.author, pool: pool),
                publisher: try await TestEnvironment.token(.publish, pool: pool),
                admin: try await TestEnvironment.token(.admin, pool: pool))
            let world = ProxiedReplicas(harness: harness, replicas: replicas, bouncerURL: bouncer, directory: directory)
            try await world.waitUntilEveryReplicaIsInRotation()
            return world
        } catch {
            replicas.forEach { $0.stop() }
            _ = try? DeployScript.run("proxies", ["stop", directory])
            pool.shutdown()
            throw error
        }
    }

    /// Stops HAProxy, the replicas and PgBouncer.
    func stop() {
        _ = try? DeployScript.run("proxies", ["stop", directory])
        replicas.forEach { $0.stop() }
        harness.pool.shutdown()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Every replica answers `/readyz` through PgBouncer, and HAProxy has seen each one
    /// healthy (its round robin reaches all of them). Hang guard 30 s.
    func waitUntilEveryReplicaIsInRotation() async throws {
        let deadline = Date().addingTimeInterval(30)
        for client in harness.clients.dropFirst() {
            while try client.send("GET", "/readyz").status != 200 {
                guard Date() < deadline else { throw DeployScript.Failed(description: "a replica never got ready") }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        // HAProxy checks every 200 ms; the first check of each server must have passed.
        var answered = 0
        while answered < 3 * replicas.count {
            guard Date() < deadline else { throw DeployScript.Failed(description: "HAProxy never routed") }
            answered = try proxy.send("GET", "/readyz").status == 200 ? answered + 1 : 0
            if answered == 0 { try await Task.sleep(for: .milliseconds(50)) }
        }
    }

    /// The database name of a `postgres://…/NAME` URL.
    static func databaseName(_ url: String) -> String {
        String(url.split(separator: "/").last?.split(separator: "?").first ?? "parley")
    }
}
