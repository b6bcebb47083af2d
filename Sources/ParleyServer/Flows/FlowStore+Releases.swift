public import Foundation
public import ParleyPostgres

extension FlowStore {
    /// Takes the per-channel release lock for the rest of the transaction, so a
    /// release and a bundle (which releases several flows) never interleave into
    /// a mix no one asked for.
    func lockChannel(_ channel: String, _ connection: PostgresConnection) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(hashtext('parley.release.' || \(channel)))")
    }

    /// A partial release was asked for where no full release precedes it on the channel: the rest
    /// of the sessions would have no version to go to.
    public struct NoFullRelease: Error {}

    /// Makes `version` live on `channel` for `percent` of new sessions (100: everyone); `nil` when
    /// the version does not exist. Throws ``NoFullRelease`` for a partial release on a channel
    /// without a full one.
    public func release(
        _ flowId: String, version: Int, channel: String, by releasedBy: String, percent: Int = 100,
        bundleDigest: Data? = nil, on connection: PostgresConnection? = nil
    ) async throws -> StoredRelease? {
        let release = Release(
            flowId: flowId, version: version, channel: channel, releasedBy: releasedBy, percent: percent,
            bundleDigest: bundleDigest)
        if let connection { return try await insert(release, connection) }
        return try await pool.withTransaction { try await insert(release, $0) }
    }

    private struct Release {
        let flowId: String, version: Int, channel: String, releasedBy: String, percent: Int, bundleDigest: Data?
    }

    private func insert(_ release: Release, _ connection: PostgresConnection) async throws -> StoredRelease? {
        try await lockChannel(release.channel, connection)
        let exists = try await connection.query(
            "SELECT 1 FROM flow_versions WHERE flow_id = \(release.flowId) AND version = \(release.version)")
        guard !exists.isEmpty else { return nil }
        if release.percent < 100 {
            let full = try await connection.query(
                """
                SELECT 1 FROM releases WHERE flow_id = \(release.flowId) AND channel = \(release.channel)
                AND percent = 100 LIMIT 1
                """)
            guard !full.isEmpty else { throw NoFullRelease() }
        }
        let rows = try await connection.query(
            """
            INSERT INTO releases (flow_id, channel, version, released_by, bundle_digest, percent)
            VALUES (\(release.flowId), \(release.channel), \(release.version), \(release.releasedBy),
                    \(release.bundleDigest), \(release.percent))
            RETURNING id, flow_id, channel, version, released_by, percent, false AS halted,
                      \(unsafeRaw: Self.createdAtText) AS created
            """)
        return try rows.first.map(Self.decodeRelease)
    }

    /// The columns ``decodeRelease(_:)`` reads, for a `FROM releases` query.
    static let releaseColumns = """
        SELECT id, flow_id, channel, version, released_by, percent,
               EXISTS (SELECT 1 FROM release_halts h WHERE h.release_id = releases.id) AS halted,
               \(createdAtText) AS created
        """

    /// A flow's release history, newest first (at most `limit` rows).
    public func releases(_ flowId: String, limit: Int) async throws -> [StoredRelease] {
        let rows = try await pool.query(
            """
            \(unsafeRaw: Self.releaseColumns)
            FROM releases WHERE flow_id = \(flowId) ORDER BY id DESC LIMIT \(limit)
            """)
        return try rows.map(Self.decodeRelease)
    }

    static func decodeRelease(_ row: PostgresRow) throws -> StoredRelease {
        StoredRelease(
            id: try row.decode(column: "id"), flowId: try row.decode(column: "flow_id"),
            channel: try row.decode(column: "channel"), version: try row.decode(column: "version"),
            releasedBy: try row.decode(column: "released_by"), percent: try row.decode(column: "percent"),
            halted: try row.decode(column: "halted"), createdAt: try row.decode(column: "created"))
    }
}
