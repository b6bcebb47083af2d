import ParleyPostgres

extension FlowStore {
    /// The release numbers behind a ``LiveRelease``: versions, not yet decoded flows.
    struct LiveReleaseState: Sendable {
        /// The newest full release's version, if any.
        var baseVersion: Int?
        /// The newest release when it is partial: its version, percent, first release of the
        /// rollout, and whether it was halted.
        var rollout: (version: Int, percent: Int, rolloutId: Int, halted: Bool)?
    }

    /// What is live for (flow, channel); nil when the flow was never released there.
    func liveReleaseState(_ flowId: String, channel: String) async throws -> LiveReleaseState? {
        let rows = try await pool.query(
            """
            WITH latest AS (
                SELECT id, version, percent FROM releases
                WHERE flow_id = \(flowId) AND channel = \(channel) ORDER BY id DESC LIMIT 1
            ), base AS (
                SELECT id, version FROM releases
                WHERE flow_id = \(flowId) AND channel = \(channel) AND percent = 100 ORDER BY id DESC LIMIT 1
            )
            SELECT latest.version, latest.percent, base.version AS base_version,
                   (SELECT min(r.id) FROM releases r
                    WHERE r.flow_id = \(flowId) AND r.channel = \(channel) AND r.version = latest.version
                      AND r.percent < 100 AND r.id > coalesce(base.id, 0)) AS rollout_id,
                   EXISTS (SELECT 1 FROM release_halts h WHERE h.release_id = latest.id) AS halted
            FROM latest LEFT JOIN base ON true
            """)
        guard let row = rows.first else { return nil }
        let percent: Int = try row.decode(column: "percent")
        var state = LiveReleaseState(baseVersion: try row.decode(column: "base_version"))
        if percent < 100 {
            state.rollout = (
                try row.decode(column: "version"), percent, try row.decode(column: "rollout_id"),
                try row.decode(column: "halted")
            )
        }
        return state
    }

    /// Why a halt was refused.
    enum HaltRefusal: Error {
        case unknownRelease
        case notLiveRollout
    }

    /// Halts the live partial release `releaseId` of the flow: every new session goes to the
    /// previous full release's version. Halting a halted release changes nothing.
    func halt(_ flowId: String, release releaseId: Int, by haltedBy: String) async throws -> StoredRelease {
        try await pool.withTransaction { connection in
            let found = try await connection.query(
                "SELECT channel FROM releases WHERE id = \(releaseId) AND flow_id = \(flowId)")
            guard let channel: String = try found.first?.decode(at: 0) else { throw HaltRefusal.unknownRelease }
            try await lockChannel(channel, connection)
            let latest = try await connection.query(
                """
                SELECT id, percent FROM releases WHERE flow_id = \(flowId) AND channel = \(channel)
                ORDER BY id DESC LIMIT 1
                """)
            guard let row = latest.first else { throw HaltRefusal.notLiveRollout }
            let (liveId, percent): (Int, Int) = (try row.decode(column: "id"), try row.decode(column: "percent"))
            guard liveId == releaseId, percent < 100 else { throw HaltRefusal.notLiveRollout }
            try await connection.query(
                """
                INSERT INTO release_halts (release_id, halted_by) VALUES (\(releaseId), \(haltedBy))
                ON CONFLICT (release_id) DO NOTHING
                """)
            let rows = try await connection.query(
                "\(unsafeRaw: Self.releaseColumns) FROM releases WHERE id = \(releaseId)")
            guard let release = try rows.first.map(Self.decodeRelease) else { throw HaltRefusal.unknownRelease }
            return release
        }
    }
}
