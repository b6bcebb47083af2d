import Foundation
import ParleyCore
import ParleyPostgres

/// Sessions in Postgres (DESIGN.md "Sessions"): every change is one transaction that
/// updates the row guarded by `rev` and appends one `session_log` row, so two writers
/// can never both win a rev.
struct SessionStore: Sendable {
    let pool: PostgresPool

    /// What a guarded change came to.
    enum ChangeResult: Sendable {
        /// Committed at the new rev.
        case committed
        /// Another writer changed the session first (or it expired or completed meanwhile).
        case lostRace
        /// The same `Idempotency-Key` is being processed by another request right now.
        case idempotencyInFlight
        /// The key was used before: its stored outcome.
        case idempotencyRecorded(StoredResponse)
    }

    /// A response recorded for an `Idempotency-Key`.
    struct StoredResponse: Sendable {
        let requestHash: [UInt8]
        let status: Int
        let body: [UInt8]
    }

    /// One `session_log` row.
    struct LogRow: Sendable {
        let rev: Int
        let kind: String
        let step: String
        let answers: JSONValue?
        let nextStep: String?
    }

    /// The completion a terminal change writes.
    struct Completion: Sendable {
        let path: [String]
        let answers: Answers
    }

    /// One change: the session after it, the log row, and what else commits with it.
    struct Change: Sendable {
        let after: SessionRecord
        let kind: String
        /// The step the log row concerns (answered, moved to…).
        let step: String
        let answers: Answers?
        let outcome: JSONValue?
        let nextStep: String?
        /// Replays the log (plus this change) and returns the completion, or throws to refuse it.
        let complete: (@Sendable ([LogRow]) throws -> Completion)?
        /// `(key, request hash, status, body)` to record for an `Idempotency-Key`.
        var idempotency: (key: String, requestHash: [UInt8], status: Int, body: [UInt8])?
    }

    /// Inserts a new session at rev 1 with its `start` log row.
    func create(_ record: SessionRecord) async throws {
        let key = Data(record.id.key)
        try await pool.withTransaction { connection in
            try await connection.query(
                """
                INSERT INTO sessions (key, flow_id, version, channel, core_version, locale, rev, status, step, expires_at)
                VALUES (\(key), \(record.flowId), \(record.version), \(record.channel), \(record.core), \(record.locale),
                        \(record.rev), \(record.status.rawValue), \(record.step), to_timestamp(\(record.expiresAt)))
                """)
            try await connection.query(
                """
                INSERT INTO session_log (session_key, rev, kind, step, core_version)
                VALUES (\(key), \(record.rev), 'start', \(record.step), \(record.core))
                """)
        }
    }

    /// The session with this id, or `nil` when no row has its key.
    func load(_ id: SessionID) async throws -> SessionRecord? {
        let rows = try await pool.query(
            """
            SELECT flow_id, version, channel, core_version, locale, rev, status, step, path, "values", forward, messages,
                   extract(epoch FROM expires_at)::float8 AS expires
            FROM sessions WHERE key = \(Data(id.key))
            """)
        guard let row = rows.first else { return nil }
        let status = SessionStatus(rawValue: try row.decode(column: "status")) ?? .expired
        return SessionRecord(
            id: id, flowId: try row.decode(column: "flow_id"), version: try row.decode(column: "version"),
            channel: try row.decode(column: "channel"), core: try row.decode(column: "core_version"),
            locale: try row.decode(column: "locale"), rev: try row.decode(column: "rev"), status: status,
            step: try row.decode(column: "step"),
            path: PathEntry.list(try Self.json(row, "path")) ?? [],
            values: (try? Answers(try Self.json(row, "values"))) ?? Answers(),
            forward: PathEntry.list(try Self.json(row, "forward")) ?? [],
            messages: try Self.json(row, "messages"), expiresAt: try row.decode(column: "expires"))
    }

    /// The session's log, oldest first.
    func log(_ id: SessionID) async throws -> [LogRow] {
        try await pool.withConnection { connection in try await Self.log(Data(id.key), connection) }
    }

    /// The response recorded for an `Idempotency-Key`, if any.
    func recorded(_ id: SessionID, idempotencyKey: String) async throws -> StoredResponse? {
        try await pool.withConnection { connection in
            try await Self.recorded(Data(id.key), idempotencyKey, connection)
        }
    }

    static func json(_ row: PostgresRow, _ column: String) throws -> JSONValue {
        let stored: PostgresJSONB = try row.decode(column: column)
        return try JSONParser.parse(stored.bytes)
    }

    static func log(_ key: Data, _ connection: PostgresConnection) async throws -> [LogRow] {
        let rows = try await connection.query(
            """
            SELECT rev, kind, step, answers, next_step FROM session_log WHERE session_key = \(key) ORDER BY rev
            """)
        return try rows.map { row in
            let answers: PostgresJSONB? = try row.decode(column: "answers")
            return LogRow(
                rev: try row.decode(column: "rev"), kind: try row.decode(column: "kind"),
                step: try row.decode(column: "step"), answers: try answers.map { try JSONParser.parse($0.bytes) },
                nextStep: try row.decode(column: "next_step"))
        }
    }

    static func recorded(_ key: Data, _ idempotencyKey: String, _ connection: PostgresConnection) async throws
        -> StoredResponse?
    {
        let rows = try await connection.query(
            """
            SELECT request_sha256, status, response FROM session_idempotency
            WHERE session_key = \(key) AND key = \(idempotencyKey)
            """)
        guard let row = rows.first else { return nil }
        let hash: Data = try row.decode(column: "request_sha256")
        let body: Data = try row.decode(column: "response")
        return StoredResponse(requestHash: Array(hash), status: try row.decode(column: "status"), body: Array(body))
    }
}

extension SessionStore {
    /// Counts a rejected answer's rules for the session (what a rollout comparison reads); an
    /// invalid answer changes no state, so nothing else records it.
    func recordRejections(_ id: SessionID, rules: [String]) async throws {
        try await pool.query(
            """
            INSERT INTO session_rejections (session_key, rule, count)
            SELECT \(Data(id.key)), rule, count(*) FROM unnest(\(rules)::text[]) AS rule GROUP BY rule
            ON CONFLICT (session_key, rule) DO UPDATE SET count = session_rejections.count + EXCLUDED.count
            """)
    }
}
