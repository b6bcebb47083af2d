import Foundation
import ParleyCore
import ParleyPostgres

/// Sessions in Postgres (DESIGN.md "Sessions"): every change is one statement that
/// updates the row guarded by `rev` and appends one `session_log` row, so two writers
/// can never both win a rev; changes are group-committed (many per transaction and fsync).
struct SessionStore: Sendable {
    let pool: PostgresPool
    /// Commits changes of many sessions in one transaction (issue 15, "Writes").
    let committer: GroupCommitter
    /// Idempotency keys being committed by this process.
    let claims = IdempotencyClaims()
    /// Seals sensitive answers before they are written and opens them when read (issue 18).
    let sealing: AnswerSealing

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
        /// The pinned version's sensitive fields: their answers are sealed wherever they are stored.
        let sensitive: Set<String>
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
        let key = id.key
        return SessionRecord(
            id: id, flowId: try row.decode(column: "flow_id"), version: try row.decode(column: "version"),
            channel: try row.decode(column: "channel"), core: try row.decode(column: "core_version"),
            locale: try row.decode(column: "locale"), rev: try row.decode(column: "rev"), status: status,
            step: try row.decode(column: "step"), path: try entries(try Self.json(row, "path"), session: key),
            values: try sealing.open(try Self.json(row, "values"), session: key),
            forward: try entries(try Self.json(row, "forward"), session: key),
            messages: try Self.json(row, "messages"), expiresAt: try row.decode(column: "expires"))
    }

    /// Stored path entries with their sealed answers opened; a malformed list reads as empty
    /// (a tampered row is refused at completion by the replay).
    func entries(_ stored: JSONValue, session: [UInt8]) throws -> [PathEntry] {
        var entries: [PathEntry] = []
        for item in stored.arrayValue ?? [] {
            guard let step = item["step"]?.stringValue, let answers = item["answers"] else { return [] }
            entries.append(PathEntry(step: step, answers: try sealing.open(answers, session: session)))
        }
        return entries
    }

    /// Path entries as stored: `[{"step", "answers"}]` with the sensitive answers sealed.
    func stored(_ entries: [PathEntry], sensitive: Set<String>, session: [UInt8]) throws -> JSONValue {
        .array(
            try entries.map { entry in
                [
                    "step": .string(entry.step),
                    "answers": try sealing.seal(entry.answers, sensitive: sensitive, session: session),
                ]
            })
    }

    /// The session's log, oldest first.
    func log(_ id: SessionID) async throws -> [LogRow] {
        try await pool.withConnection { connection in try await log(Data(id.key), connection) }
    }

    /// The response recorded for an `Idempotency-Key`, if any.
    func recorded(_ id: SessionID, idempotencyKey: String) async throws -> StoredResponse? {
        try await pool.withConnection { connection in
            try await recorded(Data(id.key), idempotencyKey, connection)
        }
    }

    static func json(_ row: PostgresRow, _ column: String) throws -> JSONValue {
        let stored: PostgresJSONB = try row.decode(column: column)
        return try JSONParser.parse(stored.bytes)
    }

    /// The log of a session, its sealed answers opened.
    func log(_ key: Data, _ connection: PostgresConnection) async throws -> [LogRow] {
        let rows = try await connection.query(
            """
            SELECT rev, kind, step, answers, next_step FROM session_log WHERE session_key = \(key) ORDER BY rev
            """)
        return try rows.map { row in
            let answers: PostgresJSONB? = try row.decode(column: "answers")
            return LogRow(
                rev: try row.decode(column: "rev"), kind: try row.decode(column: "kind"),
                step: try row.decode(column: "step"),
                answers: try answers.map { try sealing.open(try JSONParser.parse($0.bytes), session: Array(key)).json },
                nextStep: try row.decode(column: "next_step"))
        }
    }

    /// A recorded response; a sealed one (the session has sensitive fields) is opened.
    func recorded(_ key: Data, _ idempotencyKey: String, _ connection: PostgresConnection) async throws
        -> StoredResponse?
    {
        let rows = try await connection.query(
            """
            SELECT request_sha256, status, response FROM session_idempotency
            WHERE session_key = \(key) AND key = \(idempotencyKey)
            """)
        guard let row = rows.first else { return nil }
        let hash: Data = try row.decode(column: "request_sha256")
        let stored: Data = try row.decode(column: "response")
        var body = Array(stored)
        if body.starts(with: Self.sealedPrefix) {
            body = try sealing.keyring.open(
                String(decoding: body.dropFirst(Self.sealedPrefix.count), as: UTF8.self),
                context: Array(key) + [0] + Array(idempotencyKey.utf8))
        }
        return StoredResponse(requestHash: Array(hash), status: try row.decode(column: "status"), body: body)
    }

    /// How a sealed recorded response starts (a JSON body never does).
    static let sealedPrefix = Array("$sealed:".utf8)

    /// A response body as recorded: sealed when the session has sensitive fields (the snapshot's
    /// prefill may hold their answers).
    func recordable(_ body: [UInt8], sensitive: Set<String>, key: Data, idempotencyKey: String) throws -> [UInt8] {
        guard !sensitive.isEmpty else { return body }
        let sealed = try sealing.keyring.seal(body, context: Array(key) + [0] + Array(idempotencyKey.utf8))
        return Self.sealedPrefix + Array(sealed.utf8)
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
