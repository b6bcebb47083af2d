import Foundation
import ParleyCore
import ParleyCrypto
import ParleyPostgres

/// Sessions in Postgres (DESIGN.md "Sessions", docs/design-notes.md "The session log is the
/// truth"): every change is one `session_log` row appended at the next rev, guarded by the log's
/// primary key, so two writers can never both win a rev; the `sessions` row changes at start,
/// completion, expiry and erasure only. Appends are batched into one statement per transaction.
struct SessionStore: Sendable {
    let pool: PostgresPool
    /// Appends changes of many sessions in one statement and one transaction (issue 27).
    let appender: SessionAppender
    /// Idempotency keys being committed by this process.
    let claims = IdempotencyClaims()
    /// Seals sensitive answers before they are written and opens them when read (issue 18).
    let sealing: AnswerSealing
    /// Reads the sessions the snapshot cache misses, many in one statement.
    let reader: SessionReader

    init(pool: PostgresPool, appender: SessionAppender, sealing: AnswerSealing) {
        self.pool = pool
        self.appender = appender
        self.sealing = sealing
        reader = SessionReader(pool: pool, sealing: sealing)
    }

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
        /// Opened (sealed answers decrypted); nil for a row without answers.
        let answers: Answers?
        let nextStep: String?
        /// A `say` row's message.
        var outcome: JSONValue? = nil
        /// The idle expiry after this change (nil on rows written before migration 0009).
        var expiresAt: Double? = nil
        /// The partition key: the month the session started.
        var month: Int? = nil
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

    /// Inserts a new session at rev 1 with its `start` log row, batched with other sessions' writes
    /// (``SessionAppender``): one statement and one commit for many starts.
    func create(_ record: SessionRecord, startedAt: Double) async throws {
        let start = SessionAppend(
            key: record.id.key, rev: record.rev, month: record.month, kind: "start", step: record.step,
            answers: [], outcome: "", nextStep: "", core: record.core, expiresAt: record.expiresAt, depth: 0,
            start: (record.flowId, record.version, record.channel, record.locale ?? "", startedAt))
        // 128 random bits never repeat in practice; if they did, the start fails rather than
        // joining another session's log.
        guard try await appender.append(start) else { throw KeyTaken() }
    }

    /// A new session's key is somebody else's already.
    struct KeyTaken: Error {}

    /// The UTC month (yyyymm) of an instant: the partition key of a session started then.
    ///
    /// By arithmetic (``CivilDate``): a Gregorian `Calendar` and its components cost a start
    /// ~4.3k instructions.
    static func month(of instant: Double) -> Int {
        let date = CivilDate(daysSince1970: Int((instant / 86_400).rounded(.down)))
        return date.year * 100 + date.month
    }

    /// The session with this id folded from its log (``SessionFold``), or `nil` when no row has its
    /// key: read with other requests' misses in one statement (``SessionReader``).
    func load(_ id: SessionID) async throws -> SessionRecord? {
        try await reader.read(id)
    }

    /// The state of session `id` from its rows as ``SessionReader`` reads them: the `sessions`
    /// row's columns beside each log row, oldest first (one row with a null rev for an empty log).
    ///
    /// Columns are read by their place in ``SessionReader``'s statement (``ReadColumn``): found by
    /// name, each of the ~20 cells a session's rows are read from scanned the result's column
    /// names through libpq (~10k instructions a cold answer).
    static func fold<Rows: Collection>(_ id: SessionID, rows: Rows, sealing: AnswerSealing) throws -> SessionRecord
    where Rows.Element == PostgresRow {
        guard let row = rows.first else {
            throw SessionReader.UnreadableRows(description: "a session read returned no row")
        }
        let identity = SessionFold.Identity(
            id: id, flowId: try row.decode(at: ReadColumn.flowId), version: try row.decode(at: ReadColumn.version),
            channel: try row.decode(at: ReadColumn.channel), core: try row.decode(at: ReadColumn.core),
            locale: try row.decode(at: ReadColumn.locale),
            status: SessionStatus(rawValue: try row.decode(at: ReadColumn.status)) ?? .expired,
            expiresAt: try row.decode(at: ReadColumn.expires), month: try row.decode(at: ReadColumn.month))
        var log: [LogRow] = []
        log.reserveCapacity(rows.count)
        for row in rows where !row.isNull(at: ReadColumn.log) {
            log.append(try logRow(row, from: ReadColumn.log, session: id.key.bytes, sealing: sealing))
        }
        if let record = SessionFold.record(identity, log: log) { return record }
        // An erased tombstone whose log went with its month's partition: the row is all there is.
        return SessionRecord(
            id: id, flowId: identity.flowId, version: identity.version, channel: identity.channel,
            core: identity.core, locale: identity.locale, rev: try row.decode(at: ReadColumn.rev),
            status: identity.status, step: try row.decode(at: ReadColumn.step), path: [], values: Answers(),
            forward: [], messages: .array([]), expiresAt: identity.expiresAt, month: identity.month)
    }

    /// Where ``SessionReader``'s statement puts the `sessions` row's columns; the log row's follow
    /// from ``log`` on, in ``LogColumn``'s order.
    enum ReadColumn {
        static let flowId = 1
        static let version = 2
        static let channel = 3
        static let core = 4
        static let locale = 5
        static let status = 6
        static let rev = 7
        static let step = 8
        static let expires = 9
        static let month = 10
        /// The first of the log row's columns (its rev: null when the log is empty).
        static let log = 11
    }

    /// A log row's columns from its first: `rev, kind, step, answers, outcome, next_step, month,
    /// expires`, in both statements that read them (``SessionReader``'s and ``log(_:_:)``).
    enum LogColumn {
        static let rev = 0
        static let kind = 1
        static let step = 2
        static let answers = 3
        static let outcome = 4
        static let nextStep = 5
        static let month = 6
        static let expires = 7
    }

    /// A `session_log` row as read from column `first` on (``LogColumn``), its sealed answers
    /// opened with `sealing`. Only a `say` row's outcome is parsed: it is the only one read (and
    /// the only one both statements select).
    private static func logRow(_ row: PostgresRow, from first: Int, session: [UInt8], sealing: AnswerSealing)
        throws -> LogRow
    {
        let answers: PostgresJSONB? = try row.decode(at: first + LogColumn.answers)
        let kind: String = try row.decode(at: first + LogColumn.kind)
        let outcome: PostgresJSONB? = kind == "say" ? try row.decode(at: first + LogColumn.outcome) : nil
        return LogRow(
            rev: try row.decode(at: first + LogColumn.rev), kind: kind,
            step: try row.decode(at: first + LogColumn.step),
            answers: try answers.map { try sealing.open(try JSONParser.parse($0.bytes), session: session) },
            nextStep: try row.decode(at: first + LogColumn.nextStep),
            outcome: try outcome.map { try JSONParser.parse($0.bytes) },
            expiresAt: try row.decode(at: first + LogColumn.expires),
            month: try row.decode(at: first + LogColumn.month))
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
        try await pool.withConnection { connection in try await log(Data(id.key.bytes), connection) }
    }

    /// The response recorded for an `Idempotency-Key`, if any.
    func recorded(_ id: SessionID, idempotencyKey: String) async throws -> StoredResponse? {
        try await pool.withConnection { connection in
            try await recorded(Data(id.key.bytes), idempotencyKey, connection)
        }
    }

    static func json(_ row: PostgresRow, _ column: String) throws -> JSONValue {
        let stored: PostgresJSONB = try row.decode(column: column)
        return try JSONParser.parse(stored.bytes)
    }

    /// The log of a session, its sealed answers opened (instants read as ``SessionReader`` reads them).
    func log(_ key: Data, _ connection: PostgresConnection) async throws -> [LogRow] {
        let rows = try await connection.query(
            """
            SELECT rev, kind, step, answers, CASE WHEN kind = 'say' THEN outcome END AS outcome, next_step, month,
                   date_part('epoch', expires_at) AS expires
            FROM session_log WHERE session_key = \(key) ORDER BY rev
            """)
        return try rows.map { try Self.logRow($0, from: 0, session: Array(key), sealing: sealing) }
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
    /// Counts a rejected answer's rules per field of `step` for the session (what a rollout
    /// comparison and the funnel read); an invalid answer changes no state, so nothing else records
    /// it. `fields[i]` failed `rules[i]`.
    func recordRejections(_ id: SessionID, step: String, fields: [String], rules: [String]) async throws {
        try await pool.query(
            """
            INSERT INTO session_rejections (session_key, step, field, rule, count, flow_id, version, core_version, locale,
                                            session_created_at)
            SELECT s.key, \(step), failed.field, failed.rule, count(*), s.flow_id, s.version, s.core_version, s.locale,
                   s.created_at
            FROM sessions s, unnest(\(fields)::text[], \(rules)::text[]) AS failed (field, rule)
            WHERE s.key = \(Data(id.key.bytes))
            GROUP BY s.key, failed.field, failed.rule, s.flow_id, s.version, s.core_version, s.locale, s.created_at
            ON CONFLICT (session_key, step, field, rule) DO UPDATE SET count = session_rejections.count + EXCLUDED.count
            """)
    }
}
