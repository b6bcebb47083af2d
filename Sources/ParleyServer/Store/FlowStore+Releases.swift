public import Foundation
public import ParleyPostgres

extension FlowStore {
    /// Takes the per-channel release lock for the rest of the transaction, so a
    /// release and a bundle (which releases several flows) never interleave into
    /// a mix no one asked for.
    func lockChannel(_ channel: String, _ connection: PostgresConnection) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(hashtext('parley.release.' || \(channel)))")
    }

    /// Makes `version` live on `channel`; `nil` when the version does not exist.
    public func release(
        _ flowId: String, version: Int, channel: String, by releasedBy: String, bundleDigest: Data? = nil,
        on connection: PostgresConnection? = nil
    ) async throws -> StoredRelease? {
        if let connection { return try await release(flowId, version, channel, releasedBy, bundleDigest, connection) }
        return try await pool.withTransaction {
            try await release(flowId, version, channel, releasedBy, bundleDigest, $0)
        }
    }

    private func release(
        _ flowId: String, _ version: Int, _ channel: String, _ releasedBy: String, _ bundleDigest: Data?,
        _ connection: PostgresConnection
    ) async throws -> StoredRelease? {
        try await lockChannel(channel, connection)
        let exists = try await connection.query(
            "SELECT 1 FROM flow_versions WHERE flow_id = \(flowId) AND version = \(version)")
        guard !exists.isEmpty else { return nil }
        let rows = try await connection.query(
            """
            INSERT INTO releases (flow_id, channel, version, released_by, bundle_digest)
            VALUES (\(flowId), \(channel), \(version), \(releasedBy), \(bundleDigest))
            RETURNING id, flow_id, channel, version, released_by, \(unsafeRaw: Self.createdAtText) AS created
            """)
        return try rows.first.map(Self.decodeRelease)
    }

    /// A flow's release history, newest first (at most `limit` rows).
    public func releases(_ flowId: String, limit: Int) async throws -> [StoredRelease] {
        let rows = try await pool.query(
            """
            SELECT id, flow_id, channel, version, released_by, \(unsafeRaw: Self.createdAtText) AS created
            FROM releases WHERE flow_id = \(flowId) ORDER BY id DESC LIMIT \(limit)
            """)
        return try rows.map(Self.decodeRelease)
    }

    static func decodeRelease(_ row: PostgresRow) throws -> StoredRelease {
        StoredRelease(
            id: try row.decode(column: "id"), flowId: try row.decode(column: "flow_id"),
            channel: try row.decode(column: "channel"), version: try row.decode(column: "version"),
            releasedBy: try row.decode(column: "released_by"), createdAt: try row.decode(column: "created"))
    }
}
