import ParleyCore
import ParleyPostgres

extension FlowStore {
    /// One version's sessions since a rollout began (DESIGN.md "Staged rollouts").
    struct VersionOutcomes: Sendable {
        let version: Int
        var started = 0
        var completed = 0
        /// Expired before completing.
        var abandoned = 0
        var active = 0
        /// Rejected answers by rule.
        var rejections: [String: Int] = [:]
    }

    /// The release a comparison is about, its rollout's start and the full release it competes with.
    struct ComparisonScope: Sendable {
        let release: StoredRelease
        /// When the rollout (its first partial release of this version) began (RFC 3339).
        let since: String
        /// The full release's version the rollout is compared with; nil when there is none.
        let baseVersion: Int?
    }

    /// The scope of release `releaseId` of the flow, or nil when the flow has no such release.
    func comparisonScope(_ flowId: String, release releaseId: Int) async throws -> ComparisonScope? {
        try await pool.withConnection { connection in
            let rows = try await connection.query(
                "\(unsafeRaw: Self.releaseColumns) FROM releases WHERE id = \(releaseId) AND flow_id = \(flowId)")
            guard let release = try rows.first.map(Self.decodeRelease) else { return nil }
            let scope = try await connection.query(
                """
                WITH base AS (
                    SELECT id, version FROM releases WHERE flow_id = \(flowId) AND channel = \(release.channel)
                    AND percent = 100 AND id < \(releaseId) ORDER BY id DESC LIMIT 1
                ), start AS (
                    SELECT min(r.id) AS id FROM releases r WHERE r.flow_id = \(flowId)
                    AND r.channel = \(release.channel) AND r.version = \(release.version)
                    AND r.id > coalesce((SELECT id FROM base), 0) AND r.id <= \(releaseId)
                )
                SELECT (SELECT version FROM base) AS base_version,
                       (SELECT \(unsafeRaw: Self.createdAtText) FROM releases WHERE id = (SELECT id FROM start)) AS since
                """)
            guard let row = scope.first else { return nil }
            return ComparisonScope(
                release: release, since: try row.decode(column: "since"),
                baseVersion: try row.decode(column: "base_version"))
        }
    }

    /// Sessions started on `channel` since `since` per version, with rejections by rule.
    func outcomes(_ flowId: String, channel: String, since: String, versions: [Int]) async throws
        -> [VersionOutcomes]
    {
        guard let first = versions.first, let last = versions.last else { return [] }
        var byVersion: [Int: VersionOutcomes] = [:]
        for version in versions { byVersion[version] = VersionOutcomes(version: version) }
        let counts = try await pool.query(
            """
            SELECT version, count(*) AS started, count(*) FILTER (WHERE status = 'completed') AS completed,
                   count(*) FILTER (WHERE status = 'expired') AS abandoned,
                   count(*) FILTER (WHERE status = 'active') AS active
            FROM sessions WHERE flow_id = \(flowId) AND channel = \(channel)
            AND created_at >= \(since)::timestamptz AND (version = \(first) OR version = \(last))
            GROUP BY version
            """)
        for row in counts {
            let version: Int = try row.decode(column: "version")
            byVersion[version]?.started = try row.decode(column: "started")
            byVersion[version]?.completed = try row.decode(column: "completed")
            byVersion[version]?.abandoned = try row.decode(column: "abandoned")
            byVersion[version]?.active = try row.decode(column: "active")
        }
        let rejections = try await pool.query(
            """
            SELECT s.version, r.rule, sum(r.count)::bigint AS n
            FROM session_rejections r JOIN sessions s ON s.key = r.session_key
            WHERE s.flow_id = \(flowId) AND s.channel = \(channel) AND s.created_at >= \(since)::timestamptz
            AND (s.version = \(first) OR s.version = \(last))
            GROUP BY s.version, r.rule
            """)
        for row in rejections {
            let version: Int = try row.decode(column: "version")
            byVersion[version]?.rejections[try row.decode(column: "rule")] = try row.decode(column: "n")
        }
        return versions.compactMap { byVersion[$0] }
    }
}
