import Foundation
import ParleyPostgres
import Testing

/// Next revs of some sessions, held by a transaction of this test until released (and rolled
/// back): a group commit whose append takes one of them waits, keeping its batch slot busy.
final class RowLock: Sendable {
    private let pool: PostgresPool
    private let holder: Int
    private let releasing: AsyncStream<Void>.Continuation
    private let task: Task<Void, any Error>

    private init(
        pool: PostgresPool, holder: Int, releasing: AsyncStream<Void>.Continuation, task: Task<Void, any Error>
    ) {
        self.pool = pool
        self.holder = holder
        self.releasing = releasing
        self.task = task
    }

    /// Locks the rows of `keys` and returns once they are held.
    static func hold(_ keys: [Data], url: String) async throws -> RowLock {
        var configuration = PostgresConfiguration(url: url)
        configuration.maximumConnections = 2
        let pool = PostgresPool(configuration: configuration)
        let (released, releasing) = AsyncStream<Void>.makeStream()
        let (held, holding) = AsyncStream<Int>.makeStream()
        // A session's change is an append at the next rev (issue 27): an uncommitted row at rev 2
        // makes an append of that rev wait for this transaction, which then rolls back.
        let task = Task {
            try await pool.withConnection { connection in
                try await connection.query("BEGIN")
                for key in keys {
                    try await connection.query(
                        """
                        INSERT INTO session_log (session_key, rev, month, kind, step, core_version)
                        SELECT key, 2, parley_log_month(created_at), 'say', step, core_version FROM sessions
                        WHERE key = \(key)
                        """)
                }
                let pid = try await connection.query("SELECT pg_backend_pid()")
                holding.yield(try pid.first?.decode(Int.self, at: 0) ?? 0)
                for await _ in released { break }
                try await connection.query("ROLLBACK")
            }
        }
        var iterator = held.makeAsyncIterator()
        guard let holder = await iterator.next() else {
            try await task.value
            throw SessionFixture.Failure(description: "the lock holder ended before locking")
        }
        return RowLock(pool: pool, holder: holder, releasing: releasing, task: task)
    }

    /// Waits until `count` backends wait for these locks (a hang guard of 60 s).
    func waitForWaiters(_ count: Int) async throws {
        for _ in 0..<3_000 {
            let rows = try await pool.query(
                "SELECT count(*)::bigint FROM pg_stat_activity WHERE \(holder)::int = ANY (pg_blocking_pids(pid))")
            if try rows.first?.decode(Int.self, at: 0) == count { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("\(count) writers never waited for the locked rows")
    }

    /// Ends the transaction, letting the waiting updates go.
    func release() async throws {
        releasing.yield()
        releasing.finish()
        try await task.value
        pool.shutdown()
    }
}
