import ParleyCore
import ParleyPostgres

/// Reads what the funnel needs from stored sessions, so every replica computes the same funnel.
/// Time bounds are always a plain range on `created_at` (open ends are ±infinity), so migration
/// 0008's index on (flow_id, created_at) serves a bounded funnel.
struct FunnelStore: Sendable {
    let pool: PostgresPool
    /// Medians are taken over at most this many of the newest matching sessions' logs: a
    /// bounded read however many sessions a flow has.
    var medianSample = 5000

    /// Sessions grouped by version, status, current step and passed steps (erased ones excluded).
    /// A completed session's row holds its final step and path; an active or expired one's row
    /// is not written per answer (issue 27), so its step is its latest log row's and its path the
    /// steps of the newest appends that reached each depth (`session_log.depth`): no answers read.
    func groups(_ flowId: String, _ filters: FunnelFilters) async throws -> [FunnelReport.Group] {
        let rows = try await pool.query(
            """
            SELECT version, status, step, ARRAY(SELECT jsonb_array_elements_text(path_steps::jsonb)) AS passed, n
            FROM (
                SELECT version, status, step, path_steps, count(*) AS n FROM (
                    SELECT s.version, s.status,
                           CASE WHEN s.status = 'completed' THEN s.step ELSE coalesce(walked.here, s.step) END AS step,
                           CASE WHEN s.status = 'completed' THEN s.path_steps
                                ELSE coalesce(walked.passed, s.path_steps) END AS path_steps
                    FROM sessions s
                    LEFT JOIN LATERAL (
                        SELECT coalesce(last.next_step, last.step) AS here,
                               (SELECT coalesce(jsonb_agg(p.step ORDER BY p.depth), '[]')::text FROM (
                                    SELECT DISTINCT ON (l.depth) l.depth, l.step FROM session_log l
                                    WHERE l.session_key = s.key AND l.depth BETWEEN 1 AND last.depth
                                      AND (l.kind = 'answer' OR (l.kind = 'goto' AND l.answers IS NOT NULL))
                                    ORDER BY l.depth, l.rev DESC
                               ) AS p) AS passed
                        FROM (
                            SELECT step, next_step, depth FROM session_log WHERE session_key = s.key
                            ORDER BY rev DESC LIMIT 1
                        ) AS last
                    ) AS walked ON s.status <> 'completed'
                    WHERE s.flow_id = \(flowId) AND s.status <> 'erased'
                    AND (\(filters.version)::integer IS NULL OR s.version = \(filters.version))
                    AND (\(filters.core)::text IS NULL OR s.core_version = \(filters.core))
                    AND (\(filters.locale)::text IS NULL OR s.locale = \(filters.locale))
                    AND s.created_at >= coalesce(\(filters.from)::timestamptz, '-infinity')
                    AND s.created_at < coalesce(\(filters.to)::timestamptz, 'infinity')
                ) AS per_session
                GROUP BY version, status, step, path_steps
            ) AS grouped
            """)
        return try rows.map { row in
            FunnelReport.Group(
                version: try row.decode(column: "version"), status: try row.decode(column: "status"),
                step: try row.decode(column: "step"), passed: try row.decode(column: "passed"),
                count: try row.decode(column: "n"))
        }
    }

    /// Rejected answers per step, field, rule and the session's core (copied into each row when
    /// recorded, so no join with the flow's sessions).
    func rejections(_ flowId: String, _ filters: FunnelFilters) async throws -> [FunnelReport.Rejection] {
        let rows = try await pool.query(
            """
            SELECT step, field, rule, core_version, sum(count)::bigint AS n FROM session_rejections
            WHERE flow_id = \(flowId)
            AND (\(filters.version)::integer IS NULL OR version = \(filters.version))
            AND (\(filters.core)::text IS NULL OR core_version = \(filters.core))
            AND (\(filters.locale)::text IS NULL OR locale = \(filters.locale))
            AND session_created_at >= coalesce(\(filters.from)::timestamptz, '-infinity')
            AND session_created_at < coalesce(\(filters.to)::timestamptz, 'infinity')
            GROUP BY step, field, rule, core_version
            ORDER BY step, field, rule, core_version
            """)
        return try rows.map { row in
            FunnelReport.Rejection(
                step: try row.decode(column: "step"), field: try row.decode(column: "field"),
                rule: try row.decode(column: "rule"), core: try row.decode(column: "core_version"),
                count: try row.decode(column: "n"))
        }
    }

    /// Median seconds from arriving on a step (the previous log row) to the answer that passed it.
    func medians(_ flowId: String, _ filters: FunnelFilters) async throws -> [String: JSONNumber] {
        let rows = try await pool.query(
            """
            WITH chosen AS (
                SELECT key FROM sessions
                WHERE flow_id = \(flowId) AND status <> 'erased'
                AND (\(filters.version)::integer IS NULL OR version = \(filters.version))
                AND (\(filters.core)::text IS NULL OR core_version = \(filters.core))
                AND (\(filters.locale)::text IS NULL OR locale = \(filters.locale))
                AND created_at >= coalesce(\(filters.from)::timestamptz, '-infinity')
                AND created_at < coalesce(\(filters.to)::timestamptz, 'infinity')
                ORDER BY created_at DESC LIMIT \(medianSample)
            ), timed AS (
                SELECT l.kind, l.step, l.created_at - lag(l.created_at) OVER (PARTITION BY l.session_key ORDER BY l.rev) AS spent
                FROM session_log l JOIN chosen c ON c.key = l.session_key
            )
            SELECT step, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM spent))::numeric, 1)::text AS median
            FROM timed WHERE kind = 'answer' AND spent IS NOT NULL GROUP BY step
            """)
        var medians: [String: JSONNumber] = [:]
        for row in rows {
            let step: String = try row.decode(column: "step")
            let text: String = try row.decode(column: "median")
            medians[step] = JSONNumber(parsing: text)
        }
        return medians
    }
}
