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

        /// The counts by table, as `/metrics` labels them.
        public var byTable: [(table: String, count: Int)] {
            [
                ("sessions", sessions), ("session_log", logRows), ("completions", completions),
                ("webhook_deliveries", deliveries),
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
        try await pool.withTransaction { connection in
            let lock = try await connection.query(
                "SELECT pg_try_advisory_xact_lock(hashtextextended(\(Self.lockKey), 0))")
            guard try lock.first?.decode(Bool.self, at: 0) == true else { return nil }
            try await connection.query("SELECT set_config('parley.history_maintenance', 'on', true)")
            return try await connection.query(statement).first
        }
    }

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
        ), completions AS (
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
