import Logging
import ParleyPostgres

/// Appends session changes in batches (issue 27): a batch is ONE statement, whatever its size:
/// its rows go as text arrays to one `INSERT … SELECT FROM unnest(…) ON CONFLICT DO NOTHING`; only
/// when a change of the batch needs them, the same statement's CTEs also insert the rows of
/// sessions it starts, complete the sessions whose completing change won (row, completion, outbox)
/// and record `Idempotency-Key` responses. The statement is its own implicit transaction
/// (``GroupCommitter/commitStatement(_:afterwards:)``: no `BEGIN` or `COMMIT` to send, plan and
/// read back). Then one `pg_notify` per 100 changes, sent by the server right after the batch's
/// commit, in the same round trip: no trigger on the way. A change whose
/// `(session, rev)` exists already is not written and reports `false` (the stale-rev 409), without
/// failing its batch mates.
struct SessionAppender: Sendable {
    private let queue: CommitQueue<SessionAppend, Bool>

    /// How long the newest batch in flight must have been out before another goes beside it.
    /// A batch of appends waits on no row lock, so batches come back within a couple of
    /// milliseconds even at c=32 on two cores: one at a time gathers everything that arrived
    /// meanwhile (5.8 answers per commit against 1.9 with 4 in flight, and 200 against 285 µs of
    /// Postgres CPU per answer). A batch that is stuck (a key another replica is inserting, a
    /// slow flush, a partition being created) still gets others beside it, up to
    /// `--group-commit-batches`.
    static let spillAfter: Duration = .milliseconds(5)

    init(committer: GroupCommitter, configuration: PostgresConfiguration, logger: Logger) {
        queue = CommitQueue(
            window: configuration.groupCommitWindow, maximumItems: configuration.groupCommitMaximumUnits,
            concurrentBatches: GroupCommitter.concurrentBatches(configuration), spillAfter: Self.spillAfter
        ) { appends in await Self.send(appends, committer: committer, logger: logger) }
    }

    /// Appends `change` with others; true when it took its rev, false when that rev exists.
    func append(_ change: SessionAppend) async throws -> Bool {
        try await queue.submit(change)
    }

    /// Batches and changes sent so far, and changes waiting for a batch.
    var statistics: (batches: Int, units: Int, waiting: Int) {
        let statistics = queue.statistics
        return (statistics.batches, statistics.items, statistics.waiting)
    }

    /// One transaction for `appends`. Two changes of one batch for the same rev of a session: the
    /// first is sent, the others lost at once. A batch that fails on a statement (not a broken
    /// connection, whose outcome is unknown) is retried change by change, so only a bad one fails.
    private static func send(_ appends: [SessionAppend], committer: GroupCommitter, logger: Logger) async
        -> [Result<Bool, any Error>]
    {
        var sent = appends
        // Which changes went (the first of each key and rev); read only for a batch of several.
        var isSent: [Bool] = []
        if appends.count > 1 {
            isSent = [Bool](repeating: true, count: appends.count)
            var seen = Set<ChangeID>()
            sent = []
            for index in appends.indices {
                isSent[index] = seen.insert(ChangeID(appends[index])).inserted
                if isSent[index] { sent.append(appends[index]) }
            }
        }
        do {
            let (batch, notice) = statements(sent, notifying: appends)
            let appended = try await committer.commitStatement(batch, afterward: notice)
            // Alone in its batch, a change won exactly when the insert wrote (or returned) a row.
            if appends.count == 1 { return [.success(!appended.isEmpty || appended.affectedRows > 0)] }
            let won = try winners(appended, of: sent)
            var results: [Result<Bool, any Error>] = []
            results.reserveCapacity(appends.count)
            var next = 0
            for first in isSent {
                results.append(.success(first && won[next]))
                if first { next += 1 }
            }
            return results
        } catch let error as PostgresError where !error.discardsConnection && sent.count > 1 {
            logger.info(
                "session append batch rolled back; retrying its changes one by one",
                metadata: ["changes": "\(sent.count)", "error": "\(error.kind)"])
            var results: [Result<Bool, any Error>] = []
            for (append, first) in zip(appends, isSent) {
                guard first else {
                    results.append(.success(false))
                    continue
                }
                results.append(await send([append], committer: committer, logger: logger)[0])
            }
            return results
        } catch {
            return appends.map { _ in .failure(error) }
        }
    }

    /// Which of `sent` took their rev: those whose `(key, rev)` the insert returned. Postgres
    /// returns an `INSERT … SELECT`'s rows in the order it inserted them, the `unnest`'s, so each
    /// row is looked for from just after the previous one's change, compared where libpq holds
    /// it; a row found nowhere after that is looked for among them all (no order is assumed,
    /// only expected). Decoded into a key, a rev and a `"<key>:<rev>"` string per row for a set,
    /// a batch cost four allocations and a string hash per change.
    static func winners(_ rows: PostgresRows, of sent: [SessionAppend]) throws -> [Bool] {
        var won = [Bool](repeating: false, count: sent.count)
        var next = 0
        for row in rows {
            var found = (next..<sent.count).first { names(row, sent[$0]) }
            if found == nil { found = sent.indices.first { names(row, sent[$0]) } }
            guard let index = found else { throw UnmatchedRow() }
            won[index] = true
            next = index + 1
        }
        return won
    }

    /// Whether `row` (hex key, rev) is `append`'s.
    private static func names(_ row: PostgresRow, _ append: SessionAppend) -> Bool {
        let sameKey =
            row.withText(at: 0) { text in
                text.withMemoryRebound(to: UInt8.self) { SessionKey(hex: $0) } == append.key
            } ?? false
        guard sameKey else { return false }
        return row.withText(at: 1) { text in
            var rev = 0
            for digit in text {
                guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return false }
                let (times, overflowTimes) = rev.multipliedReportingOverflow(by: 10)
                let (sum, overflowSum) = times.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
                guard !overflowTimes, !overflowSum else { return false }
                rev = sum
            }
            return !text.isEmpty && rev == append.rev
        } ?? false
    }

    /// The batch statement returned a `(key, rev)` that none of its changes has: a statement that
    /// no longer matches this code. The batch committed, so no caller is told its change failed
    /// on a statement (which would retry it); each hears of an error.
    struct UnmatchedRow: Error, CustomStringConvertible {
        var description: String { "the session batch returned a row that names none of its changes" }
    }

    /// A change as a set of a batch's changes tells them apart: its key and rev (the key hashed by
    /// one word of its SHA-256, uniformly spread; equality compares all of it).
    private struct ChangeID: Hashable {
        let key: SessionKey
        let rev: Int

        init(_ append: SessionAppend) {
            key = append.key
            rev = append.rev
        }
    }

    /// The batch statement and its notifications: `changes` names every change attempted (sent or
    /// not: a lost rev exists too, so invalidating it is right either way), `appends` when nil.
    /// Each notification's `"<key>:<rev>,…"` is written straight into its array element.
    static func statements(_ appends: [SessionAppend], notifying changes: [SessionAppend]? = nil) -> (
        batch: PostgresQuery, notice: PostgresQuery
    ) {
        let changes = changes ?? appends
        var notices = PostgresTextArray(capacity: 72 * changes.count + 16)
        var start = 0
        while start < changes.count {
            let end = min(start + 100, changes.count)
            notices.startElement()
            for index in start..<end {
                if index > start { notices.appendToElement(byte: UInt8(ascii: ",")) }
                changes[index].key.withHex { notices.appendToElement(utf8: $0) }
                notices.appendToElement(byte: UInt8(ascii: ":"))
                notices.appendToElement(changes[index].rev)
            }
            notices.endElement()
            start = end
        }
        let (groups, binds) = SessionAppend.binds(appends)
        return (
            PostgresQuery(
                unsafeSQL: changes.count == 1 && groups.isEmpty ? soleSQL : batchSQL[groups.rawValue], binds: binds),
            PostgresQuery(unsafeSQL: noticeSQL, binds: [notices.bind])
        )
    }

    /// One `pg_notify` per element of its one `text[]` parameter, sent after the batch's commit
    /// (the sync point that ends its implicit transaction) as a transaction of its own that does
    /// not wait for its WAL flush. In the batch's
    /// transaction, the notify would take Postgres's database-wide notify lock at pre-commit and
    /// hold it through the WAL flush: every notifying commit of every process would then flush
    /// alone, one after the other (2,480 such transactions/s against 23,286 plain inserts at
    /// c=32). Afterwards, the lock is held for microseconds and the batches' commits share
    /// flushes. Listeners still hear of a change only once it is durable; a notification lost
    /// with a Postgres crash is one every listener loses anyway (they reconnect and drop their
    /// caches), and the key guard never trusts a cache. It runs after a failed batch too (the
    /// pipeline skips only to the batch's sync point): harmless, since a notification only makes
    /// caches drop the sessions it names, which they reload from the log.
    private static let noticeSQL = """
        SELECT pg_notify('parley_sessions', notice), set_config('synchronous_commit', 'off', true)
        FROM unnest($1::text[]) notice
        """

    /// The batch statement of each combination of column groups, built once: only the arrays
    /// change from batch to batch. A batch takes only the parts its changes need: answers alone
    /// (most batches) are a single `INSERT … SELECT FROM unnest`, which locks and opens
    /// `session_log` and nothing else; the `sessions` row, completion, outbox and idempotency
    /// parts (each a table and its indexes opened and locked on every execution, used or not)
    /// come only with a change that writes them.
    static let batchSQL = (0..<8).map { batchStatement(SessionAppend.Groups(rawValue: $0)) }

    /// A batch of one answer (most under light load): the log row alone, without `RETURNING`:
    /// the command tag's count says whether it took its rev, and no row description and row
    /// are built, sent and parsed for it.
    static let soleSQL = batchStatement([], returning: false)

    /// The statement for a batch whose changes use `groups` (parameters: the 11 log columns, then
    /// each present group's, in ``SessionAppend/binds(_:)``'s order).
    static func batchStatement(_ groups: SessionAppend.Groups, returning: Bool = true) -> String {
        var columns = ["k", "r", "m", "kind", "step", "a", "o", "n", "core", "e", "d"]
        if groups.contains(.completion) { columns += ["sp", "cp", "ca"] }
        if groups.contains(.idempotency) { columns += ["ik", "ih", "st", "rb"] }
        if groups.contains(.start) { columns += ["sf", "sv", "sc", "sl", "sa"] }
        let arrays = columns.indices.map { "$\($0 + 1)::text[]" }.joined(separator: ", ")
        let source = "unnest(\(arrays)) AS u (\(columns.joined(separator: ", ")))"
        let logColumns =
            "session_key, rev, month, kind, step, answers, outcome, next_step, core_version, expires_at, depth"
        let logValues = """
            decode(k, 'hex'), r::integer, m::integer, kind, step, nullif(a, '')::jsonb, nullif(o, '')::jsonb,
                   nullif(n, ''), core, to_timestamp(e::float8), d::integer
            """
        guard !groups.isEmpty else {
            return """
                INSERT INTO session_log (\(logColumns))
                SELECT \(logValues)
                FROM \(source)
                ON CONFLICT DO NOTHING
                """ + (returning ? "\nRETURNING encode(session_key, 'hex'), rev" : "")
        }
        var inputs = [
            "decode(k, 'hex') AS key, r::integer AS rev, m::integer AS month, kind, step",
            "nullif(a, '')::jsonb AS answers, nullif(o, '')::jsonb AS outcome, nullif(n, '') AS next_step, core",
            "to_timestamp(e::float8) AS expires_at, d::integer AS depth",
        ]
        var parts: [String] = []
        if groups.contains(.start) {
            inputs.append(
                """
                nullif(sf, '') AS flow_id, nullif(sv, '')::integer AS version, sc AS channel, nullif(sl, '') AS locale,
                       to_timestamp(nullif(sa, '')::float8) AS started_at
                """)
            parts.append(
                """
                opened AS (
                    INSERT INTO sessions (key, flow_id, version, channel, core_version, locale, rev, status, step,
                                          expires_at, created_at, updated_at)
                    SELECT key, flow_id, version, channel, core, locale, 1, 'active', step, expires_at, started_at, started_at
                    FROM input WHERE kind = 'start' AND flow_id IS NOT NULL
                )
                """)
        }
        parts.append(
            """
            appended AS (
                INSERT INTO session_log (\(logColumns))
                SELECT key, rev, month, kind, step, answers, outcome, next_step, core, expires_at, depth FROM input
                ON CONFLICT DO NOTHING
                RETURNING session_key, rev
            )
            """)
        if !groups.isDisjoint(with: [.completion, .idempotency]) {
            parts.append(
                "won AS (SELECT input.* FROM input JOIN appended a ON a.session_key = input.key AND a.rev = input.rev)")
        }
        if groups.contains(.completion) {
            inputs.append(
                "nullif(sp, '')::jsonb AS session_path, nullif(cp, '')::jsonb AS completed_path, nullif(ca, '')::jsonb AS completed_answers"
            )
            parts.append(
                """
                finished AS (
                    UPDATE sessions s SET status = 'completed', rev = won.rev, step = won.next_step, path = won.session_path,
                        updated_at = now(), completed_at = now(), expires_at = won.expires_at
                    FROM won WHERE s.key = won.key AND won.completed_path IS NOT NULL
                    RETURNING s.key, s.flow_id, s.version, s.core_version
                ), completed AS (
                    INSERT INTO completions AS c (session_key, flow_id, version, core_version, path, answers)
                    SELECT f.key, f.flow_id, f.version, f.core_version, won.completed_path, won.completed_answers
                    FROM finished f JOIN won ON won.key = f.key
                    RETURNING c
                ), announced AS (\(WebhookOutbox.announceCompletions)
                )
                """)
        }
        if groups.contains(.idempotency) {
            inputs.append(
                """
                nullif(ik, '') AS idempotency_key, decode(ih, 'hex') AS request_sha256, nullif(st, '')::integer AS status,
                       decode(rb, 'hex') AS response
                """)
            parts.append(
                """
                recorded AS (
                    INSERT INTO session_idempotency (session_key, key, request_sha256, status, response)
                    SELECT key, idempotency_key, request_sha256, status, response FROM won WHERE idempotency_key IS NOT NULL
                    ON CONFLICT DO NOTHING
                )
                """)
        }
        return """
            WITH input AS (
                SELECT \(inputs.joined(separator: ",\n       "))
                FROM \(source)
            ), \(parts.joined(separator: ", "))
            SELECT encode(session_key, 'hex'), rev FROM appended
            """
    }
}
