public import Foundation
public import ParleyCore
import ParleyCrypto
public import ParleyPostgres

/// Flows, their immutable versions and releases, in plain SQL on ParleyPostgres
/// (DESIGN.md "Storage"). Every statement is parameterised.
public struct FlowStore: Sendable {
    /// The pool every query runs on.
    public let pool: PostgresPool

    /// Creates a store on a pool.
    public init(pool: PostgresPool) { self.pool = pool }

    /// RFC 3339 UTC text of a `created_at` column, formatted by Postgres.
    static let createdAtText = "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

    /// Result of storing a flow document.
    public enum StoreOutcome: Sendable {
        /// A new version was created.
        case created(StoredFlowVersion)
        /// Identical content already exists as this version; nothing was stored.
        case existing(StoredFlowVersion)
        /// `If-Match` named a version that is not the latest.
        case preconditionFailed(latest: Int?)
    }

    /// Stores `flow` as a new immutable version unless identical content exists.
    ///
    /// Versioning is serialised per flow by locking its `flows` row, so two
    /// concurrent posts get consecutive numbers instead of a conflict.
    public func storeVersion(
        _ flow: Flow, author: String, ifMatch: Int?, source: String = "api", bundleDigest: Data? = nil,
        on connection: PostgresConnection? = nil
    ) async throws -> StoreOutcome {
        if let connection { return try await storeVersion(flow, author, ifMatch, source, bundleDigest, connection) }
        do {
            return try await pool.withTransaction { connection in
                let outcome = try await storeVersion(flow, author, ifMatch, source, bundleDigest, connection)
                // Roll back (e.g. the `flows` row of a new id) when the precondition failed.
                if case .preconditionFailed(let latest) = outcome { throw PreconditionFailure(latest: latest) }
                return outcome
            }
        } catch let failure as PreconditionFailure {
            return .preconditionFailed(latest: failure.latest)
        }
    }

    /// Aborts the transaction of a post whose `If-Match` failed.
    private struct PreconditionFailure: Error {
        let latest: Int?
    }

    private func storeVersion(
        _ flow: Flow, _ author: String, _ ifMatch: Int?, _ source: String, _ bundleDigest: Data?,
        _ connection: PostgresConnection
    ) async throws -> StoreOutcome {
        let canonical = Data(flow.canonicalBytes)
        let hash = Data(SHA256.hash(flow.canonicalBytes))
        try await connection.query("INSERT INTO flows (id) VALUES (\(flow.id)) ON CONFLICT (id) DO NOTHING")
        try await connection.query("SELECT id FROM flows WHERE id = \(flow.id) FOR UPDATE")
        let existing = try await connection.query(
            "SELECT version FROM flow_versions WHERE flow_id = \(flow.id) AND content_sha256 = \(hash)")
        if let row = existing.first {
            let version: Int = try row.decode(at: 0)
            return .existing(try await loadVersion(flow.id, version, connection)!)
        }
        let latestRows = try await connection.query(
            "SELECT max(version) FROM flow_versions WHERE flow_id = \(flow.id)")
        let latest: Int? = try latestRows.first?.decode(Int?.self, at: 0) ?? nil
        if let ifMatch, ifMatch != latest { return .preconditionFailed(latest: latest) }
        let next = (latest ?? 0) + 1
        let content = PostgresJSONB(bytes: flow.canonicalBytes)
        try await connection.query(
            """
            INSERT INTO flow_versions
                (flow_id, version, content, canonical, content_sha256, schema_version, author, source, bundle_digest)
            VALUES (\(flow.id), \(next), \(content), \(canonical), \(hash), \(SchemaVersion.flow.description),
                    \(author), \(source), \(bundleDigest))
            """)
        return .created(try await loadVersion(flow.id, next, connection)!)
    }

    /// Version `n` of a flow, or `nil`.
    public func version(_ flowId: String, _ number: Int) async throws -> StoredFlowVersion? {
        try await pool.withConnection { try await loadVersion(flowId, number, $0) }
    }

    func loadVersion(_ flowId: String, _ number: Int, _ connection: PostgresConnection) async throws
        -> StoredFlowVersion?
    {
        let rows = try await connection.query(
            """
            SELECT flow_id, version, encode(content_sha256, 'hex') AS hash, author, source, canonical,
                   \(unsafeRaw: Self.createdAtText) AS created
            FROM flow_versions WHERE flow_id = \(flowId) AND version = \(number)
            """)
        guard let row = rows.first else { return nil }
        return try Self.decodeVersion(row)
    }

    static func decodeVersion(_ row: PostgresRow) throws -> StoredFlowVersion {
        let canonical: Data = try row.decode(column: "canonical")
        let flow = try Flow.decode([UInt8](canonical))
        return StoredFlowVersion(
            flowId: try row.decode(column: "flow_id"), version: try row.decode(column: "version"),
            contentHash: try row.decode(column: "hash"), author: try row.decode(column: "author"),
            source: try row.decode(column: "source"), createdAt: try row.decode(column: "created"), flow: flow)
    }
}
