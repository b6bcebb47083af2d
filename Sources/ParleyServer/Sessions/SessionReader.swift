import ParleyCrypto
import ParleyPostgres

/// Reads sessions from the database in batches (issue 27): every session the snapshot cache does
/// not hold is folded from its `sessions` row and its log, and the reads of concurrent requests go
/// as ONE statement (`unnest` of their keys joined to both tables), not one round trip each.
///
/// Why: under a write load the cache cannot hold every live session, and at c=32 four answers in
/// five were misses whose read cost Postgres 67 µs of execution plus a round trip, more than the
/// append itself (`BENCH_PG_STATEMENTS=1 deploy/bench-service`). A read waits on no lock, so a
/// batch comes back within a millisecond: one batch at a time gathers the reads that arrived
/// meanwhile, and a lone read goes at once (no window).
struct SessionReader: Sendable {
    private let queue: CommitQueue<SessionID, SessionRecord?>

    /// How long the newest read batch must have been out before another goes beside it: a read
    /// that is slow (a cold page, a lock on the catalog while a partition is created) still gets
    /// others beside it, up to `--group-commit-batches`.
    static let spillAfter: Duration = .milliseconds(2)

    /// The most sessions one statement reads.
    static let maximumSessions = 64

    init(pool: PostgresPool, sealing: AnswerSealing) {
        queue = CommitQueue(
            window: .zero, maximumItems: Self.maximumSessions,
            concurrentBatches: GroupCommitter.concurrentBatches(pool.configuration), spillAfter: Self.spillAfter
        ) { ids in await Self.read(ids, pool: pool, sealing: sealing) }
    }

    /// The session with this id folded from its log, or `nil` when no row has its key.
    func read(_ id: SessionID) async throws -> SessionRecord? {
        try await queue.submit(id)
    }

    /// Statements sent so far and the sessions they read.
    var statistics: (batches: Int, sessions: Int) {
        let statistics = queue.statistics
        return (statistics.batches, statistics.items)
    }

    /// Reads `ids` in one statement; each one's state, in order. A session whose rows do not fold
    /// (a malformed or tampered row) fails alone.
    private static func read(_ ids: [SessionID], pool: PostgresPool, sealing: AnswerSealing) async
        -> [Result<SessionRecord?, any Error>]
    {
        var keys = PostgresTextArray(capacity: 72 * ids.count + 16)
        for id in ids { id.key.withHex { keys.append(utf8: $0) } }
        let rows: PostgresRows
        do {
            rows = try await pool.queryPlannedGenerically(PostgresQuery(unsafeSQL: sql, binds: [keys.bind]))
        } catch {
            return ids.map { _ in .failure(error) }
        }
        // Rows come grouped by the key's position in the array (then by rev): each session's
        // rows are one contiguous range.
        var ranges = [Range<Int>?](repeating: nil, count: ids.count)
        var start = 0
        while start < rows.count {
            guard let position = try? rows[start].decode(Int.self, at: 0), ids.indices.contains(position - 1) else {
                return ids.map { _ in
                    .failure(UnreadableRows(description: "a session read returned a row without its position"))
                }
            }
            var end = start + 1
            while end < rows.count, (try? rows[end].decode(Int.self, at: 0)) == position { end += 1 }
            ranges[position - 1] = start..<end
            start = end
        }
        return ids.indices.map { index in
            guard let range = ranges[index] else { return .success(nil) }
            return Result { try SessionStore.fold(ids[index], rows: rows[range], sealing: sealing) }
        }
    }

    /// A session read's rows were not what its statement selects.
    struct UnreadableRows: Error, CustomStringConvertible {
        let description: String
    }

    /// The columns ``SessionStore/fold(_:rows:sealing:)`` reads, after the key's position, in the
    /// order it reads them by (``SessionStore/ReadColumn``, then ``SessionStore/LogColumn``).
    ///
    /// The keys are unnested from a subquery's value, not from the parameter itself: given the
    /// parameter, the planner counts the array's keys, so a batch of two looked far cheaper
    /// planned for its own values than the cached generic plan, and Postgres planned the
    /// statement again on every execution (~290 µs each, more than executing it). From a
    /// subquery both plans assume the same count, and the generic plan is kept.
    ///
    /// It runs on its generic plan only (``PostgresConnection/forceGenericPlan``, in its own
    /// transaction): a connection that prepared it while the tables were nearly empty kept
    /// choosing custom plans for about half its calls after they filled (issue 27, round 14). The
    /// generic plan is the index plan whatever the tables hold (an index scan of `sessions_pkey`
    /// per key, then of `session_log`'s primary key), checked with `EXPLAIN EXECUTE` on clusters
    /// holding no session and 100,000.
    ///
    /// Instants are read with `date_part`, which computes in `float8`, not with `extract`, which
    /// computes in `numeric` (then cast): the same value (both are the nearest double to the
    /// instant's microseconds over a million), and a batch of six sessions read in 158 µs
    /// against 167 (pgbench, c=1, round 18); the month is `parley_log_month`'s, written the
    /// same way.
    ///
    /// Only a `say` row's outcome is sent (the fold reads no other): every answer row holds one,
    /// and writing each as text took a sixth of a long session's read (six sessions of 51 rows
    /// in 0.52-0.56 ms against 0.64-0.65, pgbench c=1, round 19).
    private static let sql = """
        SELECT k.position, s.flow_id, s.version, s.channel, s.core_version, s.locale, s.status, s.rev AS row_rev,
               s.step AS row_step, date_part('epoch', s.expires_at) AS row_expires,
               (date_part('year', s.created_at AT TIME ZONE 'UTC') * 100
                + date_part('month', s.created_at AT TIME ZONE 'UTC'))::integer AS row_month,
               l.rev, l.kind, l.step, l.answers, CASE WHEN l.kind = 'say' THEN l.outcome END AS outcome,
               l.next_step, l.month,
               date_part('epoch', l.expires_at) AS expires
        FROM unnest((SELECT $1::text[])) WITH ORDINALITY AS k (hex, position)
        JOIN sessions s ON s.key = decode(k.hex, 'hex')
        LEFT JOIN session_log l ON l.session_key = s.key
        ORDER BY k.position, l.rev
        """
}
