import ArgumentParser
import Foundation
import ParleyPostgres

/// `parley-bench postgres`: single-row inserts per second through the pool.
///
/// Each of `concurrency` tasks inserts one row per statement (`PQexecParams`, two bound
/// values) for `seconds`, through a pool of `concurrency` connections. `deploy/bench-postgres`
/// runs it beside pgbench's equivalent script on the same cluster and prints the ratio.
struct PostgresBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postgres", abstract: "Single-row inserts through the pool beside pgbench.")

    @Option(name: .customLong("database-url"), help: "Target database (default: $PARLEY_DATABASE_URL).")
    var databaseURL: String?

    @Option(help: "Comma-separated numbers of concurrent inserting tasks.")
    var concurrency: String = "1,8,32"

    @Option(help: "Seconds to measure each concurrency level.")
    var seconds: Double = 5

    /// The table both this benchmark and deploy/bench-postgres's pgbench script insert into.
    static let table = "bench_inserts"

    func run() async throws {
        var configuration =
            try databaseURL.map { PostgresConfiguration(url: $0) } ?? PostgresConfiguration.fromEnvironment()
        configuration.applicationName = "parley-bench"
        let levels = concurrency.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !levels.isEmpty, levels.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("--concurrency must list positive integers, e.g. 1,8,32")
        }
        let setup = PostgresPool(configuration: configuration)
        try await setup.query(
            """
            CREATE TABLE IF NOT EXISTS \(identifier: Self.table) (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, payload text NOT NULL, n integer NOT NULL)
            """)
        setup.shutdown()
        for level in levels {
            configuration.maximumConnections = level
            let rate = try await measure(configuration: configuration, concurrency: level)
            print("parley concurrency=\(level) inserts_per_second=\(Int(rate))")
        }
    }

    /// Inserts per second with `concurrency` tasks sharing a pool of as many connections.
    private func measure(configuration: PostgresConfiguration, concurrency: Int) async throws -> Double {
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        // Open every connection before the clock starts, as pgbench does.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<concurrency { group.addTask { try await pool.query("SELECT pg_sleep(0.01)") } }
            try await group.waitForAll()
        }
        let start = ContinuousClock.now
        let deadline = start + .milliseconds(Int(seconds * 1000))
        let inserted = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var count = 0
                    var n = Int32(worker)
                    while ContinuousClock.now < deadline {
                        n = n &* 1_103_515_245 &+ 12345
                        try await pool.query(
                            "INSERT INTO \(identifier: Self.table) (payload, n) VALUES (\("parley-bench"), \(n & 0xFFFFF))"
                        )
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = ContinuousClock.now - start
        let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(inserted) / secondsElapsed
    }
}
