import Foundation
import ParleyPostgres
import Synchronization
import Testing

/// Concurrent units share transactions; every caller gets its own rows after the commit; a
/// bad unit fails alone (issue 15, "Writes").
@Suite(.timeLimit(.minutes(10))) struct GroupCommitterTests {
    /// A committer whose only connection is held by the test until `body` has queued units
    /// behind it, so batching is decided by events, not by timing.
    func withBlockedCommitter(
        units count: Int, table: String, opening: [PostgresQuery] = [], closing: [PostgresQuery] = [],
        _ unit: @escaping @Sendable (Int) -> [PostgresQuery]
    ) async throws -> (results: [Int: Result<[PostgresRows], any Error>], committer: GroupCommitter) {
        var configuration = try TestDatabase.configuration(maximumConnections: 1)
        configuration.acquireTimeout = .seconds(60)
        configuration.groupCommitConcurrentBatches = 1
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        try await pool.query("CREATE TABLE \(identifier: table) (id integer PRIMARY KEY, note text NOT NULL)")
        let committer = GroupCommitter(pool: pool, opening: opening, closing: closing)
        let results = try await pool.withConnection { _ in
            // The pool's one connection is ours: the first batch waits for it, the rest queue up.
            let running = Task {
                await withTaskGroup(of: (Int, Result<[PostgresRows], any Error>).self) { group in
                    for index in 0..<count {
                        group.addTask {
                            do {
                                return (index, .success(try await committer.commit(unit(index))))
                            } catch {
                                return (index, .failure(error))
                            }
                        }
                    }
                    return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
                }
            }
            try await Deadline.waitUntil("\(count - 1) units queued behind the first batch") {
                committer.statistics.waiting >= count - 1
            }
            return running
        }.value
        return (results, committer)
    }

    @Test func concurrentUnitsShareOneTransactionAndGetTheirOwnRows() async throws {
        let table = TestDatabase.uniqueName("group_commit")
        let (results, committer) = try await withBlockedCommitter(units: 40, table: table) { index in
            [
                "INSERT INTO \(identifier: table) (id, note) VALUES (\(index), \("unit \(index)")) RETURNING id",
                "SELECT txid_current() AS txid",
            ]
        }
        var transactions = Set<Int64>()
        for index in 0..<40 {
            let rows = try #require(try results[index]?.get())
            #expect(rows.count == 2)
            #expect(try rows[0][0].decode(Int.self, column: "id") == index, "each caller gets its own rows")
            transactions.insert(try rows[1][0].decode(Int64.self, column: "txid"))
        }
        #expect(transactions.count == 2, "the first unit alone, the 39 queued behind it in one transaction")
        #expect(committer.statistics.batches == 2)
        let pool = try TestDatabase.pool(maximumConnections: 1)
        defer { pool.shutdown() }
        let stored = try await pool.query("SELECT count(*) AS n FROM \(identifier: table)")
        #expect(try stored[0].decode(Int.self, column: "n") == 40, "every acknowledged row is stored")
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    @Test func everyBatchRunsItsOpeningAndClosingStatementsOnceInItsTransaction() async throws {
        let table = TestDatabase.uniqueName("group_commit")
        let channel = TestDatabase.uniqueName("batch")
        let listening = try TestDatabase.pool()
        defer { listening.shutdown() }
        let notifications = try await listening.listen(channel: channel)
        let (results, committer) = try await withBlockedCommitter(
            units: 10, table: table, opening: ["SELECT set_config('parley.test_batch', 'opened', true)"],
            closing: ["SELECT pg_notify(\(channel), txid_current()::text)"]
        ) { index in
            [
                """
                INSERT INTO \(identifier: table) (id, note) VALUES (\(index), current_setting('parley.test_batch'))
                RETURNING note
                """,
                "SELECT txid_current() AS txid",
            ]
        }
        var transactions = Set<String>()
        for index in 0..<10 {
            let rows = try #require(try results[index]?.get())
            #expect(rows.count == 2, "a unit gets its own statements' rows, not the batch's")
            #expect(try rows[0][0].decode(String.self, column: "note") == "opened", "the opening ran first")
            transactions.insert(String(try rows[1][0].decode(Int64.self, column: "txid")))
        }
        #expect(committer.statistics.batches == 2)
        #expect(transactions.count == 2)
        // The closing statement ran once in each batch's transaction: one notification per batch.
        let announced = try await Deadline.elements(2, of: notifications, "one notification per batch")
        #expect(Set(announced.map(\.payload)) == transactions)
        let pool = try TestDatabase.pool(maximumConnections: 1)
        defer { pool.shutdown() }
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    /// Statements `afterwards` (issue 27: the sessions' `NOTIFY`) run after the commit, in a
    /// transaction of their own, only when the commit succeeded; their failure is not the caller's.
    @Test func statementsAfterwardsRunAfterTheCommitAndOnlyWhenItSucceeded() async throws {
        let table = TestDatabase.uniqueName("group_commit")
        let pool = try TestDatabase.pool(maximumConnections: 1)
        defer { pool.shutdown() }
        try await pool.query("CREATE TABLE \(identifier: table) (id integer PRIMARY KEY, txid bigint NOT NULL)")
        let committer = GroupCommitter(pool: pool)
        let rows = try await committer.commitAlone(
            ["INSERT INTO \(identifier: table) (id, txid) VALUES (1, txid_current()) RETURNING txid"],
            afterwards: ["INSERT INTO \(identifier: table) (id, txid) VALUES (2, txid_current())"])
        #expect(rows.count == 1, "the caller gets its own statements' rows only")
        let stored = try await pool.query("SELECT id, txid FROM \(identifier: table) ORDER BY id")
        #expect(try stored.map { try $0.decode(Int.self, column: "id") } == [1, 2])
        #expect(
            try stored[0].decode(Int64.self, column: "txid") != stored[1].decode(Int64.self, column: "txid"),
            "afterwards is a transaction of its own")
        // A failure afterwards leaves the commit standing and the caller successful.
        _ = try await committer.commitAlone(
            ["INSERT INTO \(identifier: table) (id, txid) VALUES (3, 0)"], afterwards: ["SELECT 1 / 0"])
        // A failed transaction skips what comes afterwards.
        await #expect(throws: PostgresError.self) {
            try await committer.commitAlone(
                ["INSERT INTO \(identifier: table) (id, txid) VALUES (1, 0)"],
                afterwards: ["INSERT INTO \(identifier: table) (id, txid) VALUES (4, 0)"])
        }
        let ids = try await pool.query("SELECT id FROM \(identifier: table) ORDER BY id")
        #expect(try ids.map { try $0.decode(Int.self, column: "id") } == [1, 2, 3])
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    /// A statement committed alone as its own implicit transaction (issue 27: the session
    /// appender's batches): its rows once committed; `afterwards` in a transaction of their own,
    /// run even after the statement failed (as documented); a failure afterwards is not the caller's.
    @Test func aStatementCommittedAloneGetsItsRowsAndAfterwardsRunEitherWay() async throws {
        let table = TestDatabase.uniqueName("group_commit")
        let pool = try TestDatabase.pool(maximumConnections: 1)
        defer { pool.shutdown() }
        try await pool.query("CREATE TABLE \(identifier: table) (id integer PRIMARY KEY, txid bigint NOT NULL)")
        let committer = GroupCommitter(pool: pool)
        let rows = try await committer.commitStatement(
            "INSERT INTO \(identifier: table) (id, txid) VALUES (1, txid_current()), (2, txid_current()) RETURNING id",
            afterwards: ["INSERT INTO \(identifier: table) (id, txid) VALUES (3, txid_current())"])
        #expect(try rows.map { try $0.decode(Int.self, column: "id") } == [1, 2], "the statement's own rows")
        let stored = try await pool.query("SELECT id, txid FROM \(identifier: table) ORDER BY id")
        #expect(try stored.map { try $0.decode(Int.self, column: "id") } == [1, 2, 3])
        #expect(
            try stored[0].decode(Int64.self, column: "txid") != stored[2].decode(Int64.self, column: "txid"),
            "afterwards is a transaction of its own")
        // A failure afterwards leaves the commit standing and the caller successful.
        let standing = try await committer.commitStatement(
            "INSERT INTO \(identifier: table) (id, txid) VALUES (4, 0)", afterwards: ["SELECT 1 / 0"])
        #expect(standing.affectedRows == 1)
        // A failed statement is the caller's error, its rows are rolled back, and what comes
        // afterwards still runs; the pool's one connection serves the next statement.
        let failure = await #expect(throws: PostgresError.self) {
            try await committer.commitStatement(
                "INSERT INTO \(identifier: table) (id, txid) VALUES (5, 0), (1, 0)",
                afterwards: ["INSERT INTO \(identifier: table) (id, txid) VALUES (6, 0)"])
        }
        #expect(failure?.kind == .uniqueViolation)
        let again = try await committer.commitStatement(
            "INSERT INTO \(identifier: table) (id, txid) VALUES (7, 0) RETURNING id")
        #expect(try again[0].decode(Int.self, column: "id") == 7)
        let ids = try await pool.query("SELECT id FROM \(identifier: table) ORDER BY id")
        #expect(try ids.map { try $0.decode(Int.self, column: "id") } == [1, 2, 3, 4, 6, 7], "5 rolled back with 1")
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    /// A connection that breaks while a statement committed alone is out: the caller learns the
    /// outcome is unknown (never a success), and the pool hands out a fresh connection next.
    @Test func aStatementCommittedAloneOnABrokenConnectionIsNeverASuccess() async throws {
        let pool = try TestDatabase.pool(maximumConnections: 1)
        defer { pool.shutdown() }
        let committer = GroupCommitter(pool: pool)
        for (statement, afterwards) in [
            ("SELECT pg_terminate_backend(pg_backend_pid())", [] as [PostgresQuery]),
            ("SELECT 1 AS n", ["SELECT pg_terminate_backend(pg_backend_pid())"]),
        ] as [(PostgresQuery, [PostgresQuery])] {
            let error = await #expect(throws: PostgresError.self) {
                try await committer.commitStatement(statement, afterwards: afterwards)
            }
            #expect(error?.kind == .connectionLost)
            let after = try await committer.commitStatement("SELECT 1 AS one")
            #expect(try after[0].decode(Int.self, column: "one") == 1, "the next statement gets a fresh connection")
        }
    }

    @Test func aFailingUnitFailsAloneAndTheOthersCommit() async throws {
        let table = TestDatabase.uniqueName("group_commit")
        let (results, _) = try await withBlockedCommitter(units: 12, table: table) { index in
            // Unit 7 inserts unit 3's key again, without ON CONFLICT: a unique violation.
            let id = index == 7 ? 3 : index
            return [
                "INSERT INTO \(identifier: table) (id, note) VALUES (\(id), \("unit \(index)"))",
                "INSERT INTO \(identifier: table) (id, note) VALUES (\(100 + index), \("second of \(index)"))",
            ]
        }
        for index in 0..<12 where index != 7 {
            #expect(throws: Never.self, "unit \(index) commits") { try results[index]?.get() }
        }
        let failure = try #require(
            { () -> PostgresError? in
                if case .failure(let error) = results[7] { return error as? PostgresError }
                return nil
            }())
        #expect(failure.kind == .uniqueViolation)
        let pool = try TestDatabase.pool(maximumConnections: 1)
        defer { pool.shutdown() }
        let notes = try await pool.query("SELECT id, note FROM \(identifier: table) ORDER BY id")
        let ids = try notes.map { try $0.decode(Int.self, column: "id") }
        #expect(ids == Array(0..<12).filter { $0 != 7 } + Array(100..<112).filter { $0 != 107 })
        #expect(try notes[3].decode(String.self, column: "note") == "unit 3", "the bad unit wrote nothing")
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    @Test func anUnreachableDatabaseFailsEveryUnitWithoutSuccess() async throws {
        var configuration = PostgresConfiguration(url: "host=127.0.0.1 port=1 dbname=nowhere")
        configuration.connectTimeout = .milliseconds(500)
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        let committer = GroupCommitter(pool: pool)
        for _ in 0..<5 {
            let error = await #expect(throws: PostgresError.self) { try await committer.commit(["SELECT 1"]) }
            #expect(error?.kind == .connectionFailed)
        }
    }

    @Test func aCancelledLeaderStillCommitsItsFollowers() async throws {
        let table = TestDatabase.uniqueName("group_commit")
        var configuration = try TestDatabase.configuration(maximumConnections: 1)
        configuration.acquireTimeout = .seconds(60)
        configuration.groupCommitConcurrentBatches = 1
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        try await pool.query("CREATE TABLE \(identifier: table) (id integer PRIMARY KEY)")
        let committer = GroupCommitter(pool: pool)
        let insert = { @Sendable (id: Int) -> [PostgresQuery] in
            ["INSERT INTO \(identifier: table) (id) VALUES (\(id))"]
        }
        let (leader, followers) = try await pool.withConnection { _ in
            let leader = Task { try await committer.commit(insert(0)) }
            try await Deadline.waitUntil("the leader waiting for the pool's connection") { pool.statistics.waiting > 0 }
            let followers = (1...5).map { id in Task { try await committer.commit(insert(id)) } }
            try await Deadline.waitUntil("5 followers queued behind the leader") { committer.statistics.waiting >= 5 }
            leader.cancel()  // the leader carries the followers' units: they must not fail with it
            return (leader, followers)
        }
        _ = try await leader.value
        for follower in followers { _ = try await follower.value }
        let stored = try await pool.query("SELECT count(*) AS n FROM \(identifier: table)")
        #expect(try stored[0].decode(Int.self, column: "n") == 6)
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    /// A committer of up to 2 batches in flight beside a connection that holds a row lock of a
    /// fresh table: `body` gets the committer, the table and a way to let the lock go.
    func withLockedRow(
        _ body: @Sendable (GroupCommitter, String, @Sendable () async throws -> Void) async throws -> Void
    ) async throws {
        let table = TestDatabase.uniqueName("group_commit")
        var configuration = try TestDatabase.configuration(maximumConnections: 4)
        configuration.acquireTimeout = .seconds(60)
        configuration.groupCommitConcurrentBatches = 2
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        try await pool.query("CREATE TABLE \(identifier: table) (id integer PRIMARY KEY, note text NOT NULL)")
        try await pool.query("INSERT INTO \(identifier: table) (id, note) VALUES (1, 'first')")
        let holder = try TestDatabase.pool(maximumConnections: 1)
        defer { holder.shutdown() }
        try await holder.withConnection { locked in
            try await locked.query("BEGIN")
            try await locked.query("UPDATE \(identifier: table) SET note = 'held' WHERE id = 1")
            try await body(GroupCommitter(pool: pool), table) { try await locked.query("COMMIT") }
        }
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    /// Waits up to 5 s for `done` (polling, not awaiting the tasks: they may wait on a lock the
    /// test lets go only afterwards).
    func eventually(_ done: @Sendable () -> Bool) async throws -> Bool {
        for _ in 0..<500 where !done() { try await Task.sleep(for: .milliseconds(10)) }
        return done()
    }

    /// A batch stuck on a row lock does not hold back the next one: another batch goes beside it
    /// and commits while the lock is still held.
    @Test func aBatchStuckOnARowLockDoesNotHoldBackTheOthers() async throws {
        try await withLockedRow { committer, table, release in
            let stuck = Task {
                try await committer.commit(["UPDATE \(identifier: table) SET note = 'stuck' WHERE id = 1"])
            }
            try await Deadline.waitUntil("the first batch started") { committer.statistics.batches > 0 }
            let otherCommitted = CommitFlag()
            let other = Task {
                let rows = try await committer.commit(["INSERT INTO \(identifier: table) (id, note) VALUES (2, 'x')"])
                otherCommitted.set()
                return rows
            }
            let committed = try await eventually { otherCommitted.isSet }
            #expect(committed, "the second unit waited for the batch stuck on the lock")
            try await release()
            _ = try await stuck.value
            _ = try await other.value
            #expect(committer.statistics.batches == 2)
        }
    }
}

/// Set once, from any task: whether a commit has returned.
private final class CommitFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    func set() { flag.store(true, ordering: .releasing) }

    var isSet: Bool { flag.load(ordering: .acquiring) }
}
