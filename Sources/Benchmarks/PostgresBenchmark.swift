import ArgumentParser
import Foundation
import ParleyPostgres

/// `parley-bench postgres`: single-row inserts per second through the pool.
///
/// Each of `concurrency` tasks inserts one row per statement (`PQexecParams`, two bound
/// values) for `seconds`, through a pool of `concurrency` connections. `deploy/bench-postgres`
/// runs it beside pgbench's equivalent script on the same cluster and prints the ratio.
/// With `--group-commit` every insert is a unit handed to a ``GroupCommitter``: each task still
/// waits for its own row's commit, but concurrent rows share transactions and WAL flushes.
/// `--print-acknowledged` prints each committed row's id as soon as its commit returned (the
/// kill -9 durability test reads them).
struct PostgresBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postgres", abstract: "Single-row inserts through the pool beside pgbench.")

    @Option(name: .customLong("database-url"), help: "Target database (default: $PARLEY_DATABASE_URL).")
    var databaseURL: String?

    @Option(help: "Comma-separated numbers of concurrent inserting tasks.")
    var concurrency: String = "1,8,32"

    @Option(help: "Seconds to measure each concurrency level.")
    var seconds: Double = 5

    @Flag(help: "Insert through a GroupCommitter instead of one transaction per row.")
    var groupCommit = false

    @Option(help: "Group commit: transactions in flight at once.")
    var concurrentBatches = PostgresConfiguration(url: "").groupCommitConcurrentBatches

    @Option(help: "Group commit: microseconds a batch waits for more units while a slot is free.")
    var windowMicroseconds = 0

    @Flag(help: "Print each acknowledged row's id on its own line as soon as it is committed.")
    var printAcknowledged = false

    @Option(help: "Table to create and insert into.")
    var table = Self.table

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
            CREATE TABLE IF NOT EXISTS \(identifier: table) (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, payload text NOT NULL, n integer NOT NULL)
            """)
        setup.shutdown()
        for level in levels {
            configuration.maximumConnections = level
            configuration.groupCommitConcurrentBatches = concurrentBatches
            configuration.groupCommitWindow = .microseconds(windowMicroseconds)
            let (rate, batching) = try await measure(configuration: configuration, concurrency: level)
            print("parley concurrency=\(level) inserts_per_second=\(Int(rate))\(batching)")
        }
    }

    /// Inserts per second with `concurrency` tasks sharing a pool of as many connections.
    private func measure(configuration: PostgresConfiguration, concurrency: Int) async throws -> (Double, String) {
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        let committer = GroupCommitter(pool: pool)
        let table = self.table
        let insert = groupCommit ? Insert.grouped(committer) : Insert.direct(pool)
        let printAcknowledged = self.printAcknowledged
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
                        let id = try await insert.run(
                            "INSERT INTO \(identifier: table) (payload, n) VALUES (\("parley-bench"), \(n & 0xFFFFF)) RETURNING id"
                        )
                        if printAcknowledged { FileHandle.standardOutput.write(Data("\(id)\n".utf8)) }
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = ContinuousClock.now - start
        let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let (batches, units, _) = committer.statistics
        let batching =
            groupCommit
            ? String(format: " group_commit units_per_batch=%.1f", Double(units) / Double(max(1, batches))) : ""
        return (Double(inserted) / secondsElapsed, batching)
    }
}

/// How the benchmark's inserts reach Postgres.
enum Insert: Sendable {
    /// One statement (an implicit transaction) per row, on a pooled connection.
    case direct(PostgresPool)
    /// One unit per row, committed with others by the group committer.
    case grouped(GroupCommitter)

    /// Runs `statement` (an `INSERT … RETURNING id`) and returns the id once it is committed.
    func run(_ statement: PostgresQuery) async throws -> Int64 {
        let rows: PostgresRows
        switch self {
        case .direct(let pool): rows = try await pool.query(statement)
        case .grouped(let committer): rows = try await committer.commit([statement])[0]
        }
        return try rows[0].decode(Int64.self, at: 0)
    }
}
