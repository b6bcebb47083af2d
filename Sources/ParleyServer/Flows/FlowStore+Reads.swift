import Foundation
public import ParleyCore
import ParleyPostgres

extension FlowStore {
    /// One flow's listing entry: latest version, title (a localized title in the flow's default
    /// locale) and live releases per channel.
    public struct FlowSummary: Sendable {
        /// Flow id.
        public let id: String
        /// Title of the latest version.
        public let title: String?
        /// Latest version number.
        public let latestVersion: Int
        /// Live version per channel.
        public let live: [(channel: String, version: Int)]

        /// Wire form.
        public var json: JSONValue {
            var releases = JSONObject()
            for entry in live { releases[entry.channel] = .number(JSONNumber(entry.version)) }
            var object = JSONObject()
            object["id"] = .string(id)
            if let title { object["title"] = .string(title) }
            object["latestVersion"] = .number(JSONNumber(latestVersion))
            object["releases"] = .object(releases)
            return .object(object)
        }
    }

    /// A page of flows ordered by id, starting after `cursor`.
    public func listFlows(after cursor: String?, limit: Int) async throws -> [FlowSummary] {
        try await pool.withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT f.id, lv.version, coalesce(lv.content->'title'->>(lv.content->'locales'->>0), lv.content->>'title') AS title
                FROM flows f
                JOIN LATERAL (SELECT version, content FROM flow_versions v WHERE v.flow_id = f.id
                              ORDER BY version DESC LIMIT 1) lv ON true
                WHERE (\(cursor)::text IS NULL OR f.id > \(cursor)::text)
                ORDER BY f.id LIMIT \(limit)
                """)
            let ids: [String] = try rows.map { try $0.decode(column: "id") }
            let live = try await liveReleases(ids, connection)
            return try rows.map { row in
                let id: String = try row.decode(column: "id")
                return FlowSummary(
                    id: id, title: try row.decode(String?.self, column: "title"),
                    latestVersion: try row.decode(column: "version"), live: live[id] ?? [])
            }
        }
    }

    /// One flow's summary, or `nil` when it does not exist.
    public func flowSummary(_ id: String) async throws -> FlowSummary? {
        try await pool.withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT version, coalesce(content->'title'->>(content->'locales'->>0), content->>'title') AS title FROM flow_versions WHERE flow_id = \(id)
                ORDER BY version DESC LIMIT 1
                """)
            guard let row = rows.first else { return nil }
            let live = try await liveReleases([id], connection)
            return FlowSummary(
                id: id, title: try row.decode(String?.self, column: "title"),
                latestVersion: try row.decode(column: "version"), live: live[id] ?? [])
        }
    }

    private func liveReleases(_ ids: [String], _ connection: PostgresConnection) async throws
        -> [String: [(channel: String, version: Int)]]
    {
        guard !ids.isEmpty else { return [:] }
        let rows = try await connection.query(
            "SELECT flow_id, channel, version FROM live_releases WHERE flow_id = ANY(\(ids)) ORDER BY channel")
        var result: [String: [(channel: String, version: Int)]] = [:]
        for row in rows {
            let id: String = try row.decode(column: "flow_id")
            result[id, default: []].append((try row.decode(column: "channel"), try row.decode(column: "version")))
        }
        return result
    }

    /// A page of a flow's versions, newest first, older than `before`.
    public func listVersions(_ flowId: String, before: Int?, limit: Int) async throws -> [StoredFlowVersion] {
        try await pool.withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT flow_id, version, encode(content_sha256, 'hex') AS hash, author, source, canonical,
                       \(unsafeRaw: Self.createdAtText) AS created
                FROM flow_versions
                WHERE flow_id = \(flowId) AND (\(before)::bigint IS NULL OR version < \(before)::bigint)
                ORDER BY version DESC LIMIT \(limit)
                """)
            return try rows.map(Self.decodeVersion)
        }
    }

    /// The version live on `channel`, or `nil` when the flow has no release there.
    public func liveVersion(_ flowId: String, channel: String) async throws -> StoredFlowVersion? {
        try await pool.withConnection { connection in
            let rows = try await connection.query(
                "SELECT version FROM live_releases WHERE flow_id = \(flowId) AND channel = \(channel)")
            guard let row = rows.first else { return nil }
            return try await loadVersion(flowId, try row.decode(at: 0), connection)
        }
    }

    /// Whether version `n` of the flow was ever released on any channel.
    public func wasReleased(_ flowId: String, version: Int) async throws -> Bool {
        let rows = try await pool.query(
            "SELECT 1 FROM releases WHERE flow_id = \(flowId) AND version = \(version) LIMIT 1")
        return !rows.isEmpty
    }
}
