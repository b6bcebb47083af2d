public import Foundation
public import ParleyCore
public import ParleyPostgres

/// Retention (issue 18, README "Retention"): deletes completed and expired sessions once their
/// flow version's `retention` (else the server default) has passed since they ended, with their
/// log, completion, idempotency records, rejection counts and finished outbox rows; and finished
/// outbox rows of sessions already gone. In batches, one transaction each; one process at a time
/// across the fleet (an advisory lock), so `parley prune` and every server's schedule never work
/// against each other.
public struct SessionPruner: Sendable {
    /// What one prune deleted.
    public struct Report: Sendable, Equatable {
        /// Sessions deleted.
        public var sessions = 0
        /// Their `session_log` rows.
        public var logRows = 0
        /// Their completions.
        public var completions = 0
        /// Finished (delivered or dead) outbox rows.
        public var deliveries = 0
        /// Whole monthly partitions of `session_log` dropped (their rows are counted in `logRows`).
        public var logPartitions = 0

        /// The counts by table, as `/metrics` labels them.
        public var byTable: [(table: String, count: Int)] {
            [
                ("sessions", sessions), ("session_log", logRows), ("completions", completions),
                ("webhook_deliveries", deliveries), ("session_log_partitions", logPartitions),
            ]
        }
    }

    let pool: PostgresPool
    /// Used for sessions whose flow version names no retention.
    let retention: RetentionPeriod
    /// Sessions deleted per transaction.
    let batchSize: Int

    /// A pruner on the service's database.
    public init(pool: PostgresPool, retention: RetentionPeriod, batchSize: Int) {
        self.pool = pool
        self.retention = retention
        self.batchSize = batchSize
    }

    /// The advisory lock that lets one process prune at a time: taken per transaction, so it
    /// also holds through a transaction-pooling PgBouncer and dies with a crashed process.
    static let lockKey = "parley.prune"

    /// Prunes everything past retention at `now` (the database's clock when nil); nil when another
    /// process is pruning right now (it finishes the work).
    public func prune(asOf now: Date? = nil) async throws -> Report? {
        var report = Report()
        var started = false
        // Whole months first (issue 27): a month whose every session is past retention (or an
        // erased tombstone) goes as one partition, its log rows never deleted one by one.
        for month in try await endedMonths(now: now) {
            guard let dropped = try await lockedTransaction({ try await dropMonth(month, now: now, $0) }) else {
                return started ? report : nil
            }
            started = true
            if let dropped {
                report.logPartitions += 1
                report.sessions += dropped.sessions
                report.logRows += dropped.logRows
                report.completions += dropped.completions
                report.deliveries += dropped.deliveries
            }
        }
        while true {
            guard let row = try await locked(pruneSessions(now: now)) else { return started ? report : nil }
            started = true
            let sessions: Int = try row.decode(column: "sessions")
            report.sessions += sessions
            report.logRows += try row.decode(Int.self, column: "logs")
            report.completions += try row.decode(Int.self, column: "completions")
            report.deliveries += try row.decode(Int.self, column: "deliveries")
            if sessions < batchSize { break }
        }
        while true {
            guard let row = try await locked(pruneDeliveries(now: now)) else { return report }
            let count: Int = try row.decode(at: 0)
            report.deliveries += count
            if count < batchSize { break }
        }
        return report
    }

    /// Runs `statement` in a transaction holding the prune lock and returns its row; nil when
    /// another process holds the lock.
    private func locked(_ statement: PostgresQuery) async throws -> PostgresRow? {
        try await lockedTransaction { connection in try await connection.query(statement).first } ?? nil
    }

    /// Runs `body` in a transaction holding the prune lock, as history maintenance; nil when
    /// another process holds the lock.
    private func lockedTransaction<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T)
        async throws -> T?
    {
        try await pool.withTransaction { connection in
            let lock = try await connection.query(
                "SELECT pg_try_advisory_xact_lock(hashtextextended(\(Self.lockKey), 0))")
            guard try lock.first?.decode(Bool.self, at: 0) == true else { return nil }
            try await connection.query("SELECT set_config('parley.history_maintenance', 'on', true)")
            return try await body(connection)
        }
    }

    /// The months (yyyymm) of `session_log`'s monthly partitions that ended before `now`'s month,
    /// oldest first.
    private func endedMonths(now: Date?) async throws -> [Int] {
        let rows = try await pool.query(
            """
            SELECT substr(c.relname, 13)::integer AS month
            FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'session_log'::regclass AND c.relname ~ '^session_log_[0-9]{6}$'
              AND substr(c.relname, 13)::integer < parley_log_month(coalesce(\(now)::timestamptz, now()))
            ORDER BY 1
            """)
        return try rows.map { try $0.decode(column: "month") }
    }

    /// Drops the partition of `month` when no session with rows in it is still inside retention
    /// (erased tombstones keep their row, not their log), with the pruned sessions' rows in the
    /// other tables; nil (nothing touched) when one is.
    private func dropMonth(_ month: Int, now: Date?, _ connection: PostgresConnection) async throws -> Report? {
        let partition = "session_log_\(month)"
        let kept = try await connection.query(
            """
            SELECT 1 FROM (SELECT DISTINCT session_key FROM \(identifier: partition)) AS l
            JOIN sessions s ON s.key = l.session_key
            JOIN flow_versions v ON v.flow_id = s.flow_id AND v.version = s.version
            WHERE s.status <> 'erased'
              AND NOT (s.status IN ('completed', 'expired')
                       AND CASE s.status WHEN 'completed' THEN s.completed_at ELSE s.updated_at END
                           + parley_retention(v.content, \(retention.description)::interval)
                           < coalesce(\(now)::timestamptz, now()))
            LIMIT 1
            """)
        guard kept.isEmpty else { return nil }
        let row = try await connection.query(
            """
            WITH due AS (
                SELECT s.key FROM sessions s
                WHERE s.status IN ('completed', 'expired')
                  AND s.key IN (SELECT session_key FROM \(identifier: partition))
                FOR UPDATE OF s
            ), \(unsafeRaw: Self.deletions)
            SELECT (SELECT count(*) FROM removed) AS sessions,
                   (SELECT count(*) FROM \(identifier: partition)) AS logs,
                   (SELECT count(*) FROM completions) AS completions, (SELECT count(*) FROM deliveries) AS deliveries
            """
        ).first
        try await connection.query("ALTER TABLE session_log DETACH PARTITION \(identifier: partition)")
        try await connection.query("DROP TABLE \(identifier: partition)")
        var report = Report()
        report.sessions = try row?.decode(column: "sessions") ?? 0
        report.logRows = try row?.decode(column: "logs") ?? 0
        report.completions = try row?.decode(column: "completions") ?? 0
        report.deliveries = try row?.decode(column: "deliveries") ?? 0
        return report
    }

    /// CTEs deleting what is stored of the sessions of a `due` CTE (their keys) but their log:
    /// completions, finished deliveries, idempotency records, rejection counts and the rows.
    static let deletions = """
        completions AS (
            DELETE FROM completions c USING due WHERE c.session_key = due.key RETURNING 1
        ), deliveries AS (
            DELETE FROM webhook_deliveries d USING due WHERE d.session_key = due.key AND d.state <> 'pending' RETURNING 1
        ), idempotency AS (
            DELETE FROM session_idempotency i USING due WHERE i.session_key = due.key
        ), rejections AS (
            DELETE FROM session_rejections r USING due WHERE r.session_key = due.key
        ), removed AS (
            DELETE FROM sessions s USING due WHERE s.key = due.key RETURNING 1
        )
        """

    /// One batch of ended sessions past retention, with everything stored for them.
    private func pruneSessions(now: Date?) -> PostgresQuery {
        """
        WITH due AS (
            SELECT s.key FROM sessions s JOIN flow_versions v ON v.flow_id = s.flow_id AND v.version = s.version
            WHERE s.status IN ('completed', 'expired')
              AND CASE s.status WHEN 'completed' THEN s.completed_at ELSE s.updated_at END
                  + parley_retention(v.content, \(retention.description)::interval)
                  < coalesce(\(now)::timestamptz, now())
            LIMIT \(batchSize) FOR UPDATE OF s SKIP LOCKED
        ), logs AS (
            DELETE FROM session_log l USING due WHERE l.session_key = due.key RETURNING 1
        ), \(unsafeRaw: Self.deletions)
        SELECT (SELECT count(*) FROM removed) AS sessions, (SELECT count(*) FROM logs) AS logs,
               (SELECT count(*) FROM completions) AS completions, (SELECT count(*) FROM deliveries) AS deliveries
        """
    }

    /// One batch of finished outbox rows past the default retention whose session is gone (or
    /// that never had one: `session.expired`, `session.erased`).
    private func pruneDeliveries(now: Date?) -> PostgresQuery {
        """
        WITH due AS (
            SELECT d.id FROM webhook_deliveries d
            WHERE d.state <> 'pending'
              AND d.updated_at + \(retention.description)::interval < coalesce(\(now)::timestamptz, now())
              AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.key = d.session_key)
            LIMIT \(batchSize) FOR UPDATE SKIP LOCKED
        ), removed AS (
            DELETE FROM webhook_deliveries d USING due WHERE d.id = due.id RETURNING 1
        )
        SELECT count(*) FROM removed
        """
    }
}
