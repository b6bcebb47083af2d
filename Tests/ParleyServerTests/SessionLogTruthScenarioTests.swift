import Foundation
import ParleyCore
import ParleyPostgres
import ParleyServer
import Synchronization
import Testing

/// Issue 27: the session log is the truth. An answer is one append guarded by `(session, rev)`;
/// state is folded from the log and cached; migration 0009 keeps older sessions resumable.
@Suite(.timeLimit(.minutes(10)), .offCooperativePool) struct SessionLogTruthScenarioTests {
    /// kill -9 under an answer load at c=32: every acknowledged rev and completion is stored after
    /// the restart, and none twice (each session's revs are exactly 1…n, at most one completion).
    @Test func killNineAtThirtyTwoClientsLosesNoAcknowledgedRevAndDuplicatesNone() async throws {
        try await ServiceHarness.run(servers: 1) { service in
            let flow = try SessionFixture.released(service, prefix: "append-crash")
            let acked = try await SessionCrashScenarioTests.walkUntilKilled(service, flow, clients: 32)

            let restarted = try ServerProcess()
            defer { restarted.stop() }
            let client = RawHTTPClient(port: restarted.port)
            var latest: [String: SessionCrashScenarioTests.Acknowledged] = [:]
            for ack in acked where ack.rev > latest[ack.session]?.rev ?? 0 { latest[ack.session] = ack }
            var problems: [String] = []
            for ack in latest.values {
                let key = SessionFixture.key(ack.session)
                let rows = try await service.pool.query(
                    """
                    SELECT count(*)::bigint AS rows, count(DISTINCT rev)::bigint AS revs, max(rev) AS latest,
                           (SELECT count(*)::bigint FROM completions WHERE session_key = \(key)) AS completions
                    FROM session_log WHERE session_key = \(key)
                    """)
                let row = try #require(rows.first)
                let (count, revs, stored): (Int, Int, Int) = (
                    try row.decode(column: "rows"), try row.decode(column: "revs"), try row.decode(column: "latest")
                )
                if count != revs || revs != stored { problems.append("revs not exactly 1…\(stored): \(count) rows") }
                if stored < ack.rev { problems.append("acknowledged rev \(ack.rev), stored \(stored)") }
                let completions: Int = try row.decode(column: "completions")
                if ack.completed ? completions != 1 : completions > 1 {
                    problems.append("\(completions) completions (acknowledged completed: \(ack.completed))")
                }
                let current = try client.send("GET", "/v1/sessions/\(ack.session)", headers: [("Parley-Core", "1.2.0")])
                if current.status != 200 || current.json.rev != stored {
                    problems.append("served rev \(current.json.rev), stored \(stored)")
                }
            }
            #expect(problems.isEmpty, "\(problems.prefix(10)) of \(latest.count) sessions")
        }
    }

    /// Two replicas whose caches hold the same rev, answering the same session at once: exactly
    /// one wins each rev, the other gets 409 `stale-rev` with the winner's snapshot; and a client
    /// whose rev is newer than a replica's cache is served, not refused.
    @Test func twoReplicasWithStaleCachesLetExactlyOneWinEachRev() async throws {
        try await ServiceHarness.run(servers: 2) { service in
            let flow = try SessionFixture.released(service, prefix: "replicas")
            var snapshot = try service.startSession(flow).json
            // Both rivals send the same answers: which one wins does not change the walk.
            for answers: Answers in [["email": "a@example.com"], ["purpose": "holiday"]] {
                // Both replicas cache the current rev.
                for client in service.clients {
                    let read = try client.send("GET", "/v1/sessions/\(snapshot.sessionId)")
                    #expect(read.status == 200 && read.json.rev == snapshot.rev, "\(read)")
                }
                let current = snapshot
                let racing = service.clients.map { client in
                    Background { try service.answer(current, answers, on: client) }
                }
                var responses: [RawResponse] = []
                for answer in racing { responses.append(try await answer.wait()) }
                let winners = responses.filter { $0.status == 200 }
                let losers = responses.filter { $0.status == 409 }
                #expect(winners.count == 1 && losers.count == 1, "\(responses.map(\.status))")
                let winner = try #require(winners.first)
                #expect(losers.first?.problemType == "urn:parley:problem:stale-rev", "\(losers)")
                #expect(
                    losers.first?.json["snapshot"] == winner.json.snapshot, "the loser gets the current snapshot")
                #expect(winner.json.rev == current.rev + 1)
                snapshot = winner.json.snapshot
            }
            // A rev the second replica may not have heard of yet (its cache may still hold the
            // previous one): it reloads and serves the client, never refuses it.
            let moved = try service.answer(snapshot, ["destination": "Lyon"], on: service.clients[0])
            #expect(moved.status == 200, "\(moved)")
            let done = try service.answer(moved.json, ["emailAgain": "a@example.com"], on: service.clients[1])
            #expect(done.status == 200 && done.json["status"] == "completed", "\(done)")
            let logged = try await service.pool.query(
                """
                SELECT count(*)::bigint, count(DISTINCT rev)::bigint FROM session_log
                WHERE session_key = \(SessionFixture.key(snapshot.sessionId))
                """)
            #expect(try logged.first?.decode(Int.self, at: 0) == logged.first?.decode(Int.self, at: 1))
        }
    }

    /// A session written before migration 0009 (rows as the old code stored them, mid-walk after a
    /// `back`) is read, resumed and completed after it, with the completion a session walked
    /// wholly after the migration gets for the same answers.
    @Test func aSessionStartedBeforeTheMigrationResumesAndCompletesTheSame() async throws {
        let url = try await TestDatabase.freshDatabase()
        var configuration = PostgresConfiguration(url: url)
        configuration.maximumConnections = 2
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        let before = FileManager.default.temporaryDirectory.appendingPathComponent("parley-0008-\(UUID())")
        try FileManager.default.createDirectory(at: before, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: before) }
        for file in try FileManager.default.contentsOfDirectory(atPath: TestEnvironment.migrations.path)
        where file.hasSuffix(".sql") && file < "0009" {
            try FileManager.default.copyItem(
                at: TestEnvironment.migrations.appendingPathComponent(file), to: before.appendingPathComponent(file))
        }
        _ = try await Migrator(directory: before).migrate(on: pool)
        let database = IsolatedDatabase(url: url, pool: pool)

        // Publish on the old schema (flows are untouched by 0009), then write the session as the
        // old code did: the row holds the walk, the log every change.
        let flow: String
        do {
            let server = try database.server()
            defer { server.stop() }
            let service = try await database.harness(server)
            flow = try SessionFixture.released(service, prefix: "premigration")
        }
        let oldId = "premigration-\(UUID().uuidString.prefix(8))-session-id"
        let key = SessionFixture.key(oldId)
        try await pool.query(
            """
            INSERT INTO sessions (key, flow_id, version, channel, core_version, rev, status, step, path, "values",
                                  forward, expires_at)
            VALUES (\(key), \(flow), 1, 'production', '1.2.0', 4, 'active', 'purpose',
                    '[{"step": "email", "answers": {"email": "a@example.com"}}]', '{"purpose": "work"}',
                    '[{"step": "employer", "answers": {}}]', now() + interval '1 day')
            """)
        try await pool.query(
            """
            INSERT INTO session_log (session_key, rev, kind, step, answers, outcome, next_step, core_version) VALUES
                (\(key), 1, 'start', 'email', NULL, NULL, NULL, '1.2.0'),
                (\(key), 2, 'answer', 'email', '{"email": "a@example.com"}', '{"valid": true}', 'purpose', '1.2.0'),
                (\(key), 3, 'answer', 'purpose', '{"purpose": "work"}', '{"valid": true}', 'employer', '1.2.0'),
                (\(key), 4, 'back', 'purpose', NULL, NULL, NULL, '1.2.0')
            """)
        _ = try await Migrator(directory: TestEnvironment.migrations).migrate(on: pool)

        let server = try database.server()
        defer { server.stop() }
        let service = try await database.harness(server)
        let resumed = try service.client.send("GET", "/v1/sessions/\(oldId)")
        #expect(resumed.status == 200, "\(resumed)")
        #expect(resumed.json.rev == 4 && resumed.json.step == "purpose", "\(resumed)")
        #expect(resumed.json["values"] == ["purpose": "work"], "the prefill the back gave")
        #expect(resumed.json["path"] == ["email"])
        let steps: [Answers] = [["purpose": "holiday"], ["destination": "Lyon"], ["emailAgain": "a@example.com"]]
        var old = resumed.json
        for answers in steps { old = try service.advance(old, answers) }
        #expect(old["status"] == "completed" && old.rev == 7, "\(old)")

        // The same walk on the new storage from the start.
        var fresh = try service.startSession(flow).json
        fresh = try service.advance(fresh, ["email": "a@example.com"])
        fresh = try service.advance(fresh, ["purpose": "work"])
        let back = try service.back(fresh)
        #expect(back.status == 200, "\(back)")
        fresh = back.json
        for answers in steps { fresh = try service.advance(fresh, answers) }
        let completions = try await pool.query(
            """
            SELECT path::text, answers::text, flow_id, version, core_version FROM completions
            WHERE session_key IN (\(key), \(SessionFixture.key(fresh.sessionId))) ORDER BY id
            """)
        #expect(completions.count == 2)
        let shapes = try completions.map { row in
            [
                try row.decode(String.self, at: 0), try row.decode(String.self, at: 1),
                try row.decode(String.self, at: 2), String(try row.decode(Int.self, at: 3)),
                try row.decode(String.self, at: 4),
            ]
        }
        #expect(shapes.count == 2 && shapes[0] == shapes[1], "\(shapes)")
        #expect(shapes.first?[0] == #"["email", "purpose", "holiday", "confirm", "done"]"#, "\(shapes)")
    }

    /// Retention drops whole monthly partitions of the log: a month whose sessions are all past
    /// retention (or erased tombstones) goes as one partition; a month holding one session still
    /// inside retention (right at the boundary, or active) keeps every row of it, and only its
    /// sessions past retention are deleted one by one.
    @Test func retentionDropsWholeMonthsAndNeverTouchesASessionInsideIt() async throws {
        let database = try await IsolatedDatabase.create()
        defer { database.close() }
        let flow: String
        do {
            let server = try database.server()
            defer { server.stop() }
            flow = try SessionFixture.released(try await database.harness(server), prefix: "months")
        }
        let pool = database.pool
        let instant = "timestamptz '2025-01-01T00:00:00Z'"
        func session(_ name: String, month: Int, _ state: String) async throws -> Data {
            let key = SessionFixture.key("retention-\(name)-\(UUID().uuidString)")
            let started = "timestamptz '\(month / 100)-\(String(format: "%02d", month % 100))-15T00:00:00Z'"
            try await pool.query("SELECT parley_session_log_partition(\(month)::integer)")
            try await pool.query(
                """
                INSERT INTO sessions (key, flow_id, version, channel, core_version, rev, status, step, expires_at,
                                      created_at, updated_at, completed_at, erased_at)
                SELECT \(key), \(flow), 1, 'production', '1.2.0', 2, status, 'purpose', ended + interval '1 day',
                       \(unsafeRaw: started), ended, CASE WHEN status = 'completed' THEN ended END,
                       CASE WHEN status = 'erased' THEN ended END
                FROM (SELECT \(unsafeRaw: state)) AS given (status, ended)
                """)
            try await pool.query(
                """
                INSERT INTO session_log (session_key, rev, month, kind, step, answers, next_step, core_version, depth)
                VALUES (\(key), 1, \(month), 'start', 'email', NULL, NULL, '1.2.0', 0),
                       (\(key), 2, \(month), 'answer', 'email', '{"email": "a@example.com"}', 'purpose', '1.2.0', 1)
                """)
            return key
        }
        func ended(_ status: String, _ before: String) -> String {
            "'\(status)', \(instant) - interval '\(before)'"
        }
        // January: everything past the default 90 days.
        let januaryCompleted = try await session("jan-completed", month: 202401, ended("completed", "100 days"))
        let januaryExpired = try await session("jan-expired", month: 202401, ended("expired", "95 days"))
        // February: one past, one exactly at the boundary (kept: retention ends after it).
        let februaryPast = try await session("feb-past", month: 202402, ended("completed", "100 days"))
        let februaryBoundary = try await session("feb-boundary", month: 202402, ended("completed", "90 days"))
        // March: an active session (ended is only its last change).
        let marchActive = try await session("mar-active", month: 202403, ended("active", "300 days"))
        // April: an erased tombstone and a session past retention.
        let aprilErased = try await session("apr-erased", month: 202404, ended("erased", "200 days"))
        let aprilPast = try await session("apr-past", month: 202404, ended("completed", "200 days"))

        let pruner = SessionPruner(pool: pool, retention: try #require(RetentionPeriod("P90D")), batchSize: 100)
        let report = try #require(
            try await pruner.prune(asOf: ISO8601DateFormatter().date(from: "2025-01-01T00:00:00Z")))
        #expect(report.logPartitions == 2, "January and April: \(report)")
        #expect(report.sessions == 4, "\(report)")

        let partitions = try await pool.query(
            """
            SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'session_log'::regclass AND c.relname IN
                ('session_log_202401', 'session_log_202402', 'session_log_202403', 'session_log_202404')
            ORDER BY 1
            """)
        #expect(
            try partitions.map { try $0.decode(String.self, at: 0) } == ["session_log_202402", "session_log_202403"])
        let remaining = Set(try await pool.query("SELECT key FROM sessions").map { try $0.decode(Data.self, at: 0) })
        #expect(remaining == [februaryBoundary, marchActive, aprilErased], "the tombstone stays, as before")
        for (key, expected) in [(februaryBoundary, 2), (marchActive, 2), (februaryPast, 0)] {
            let rows = try await pool.query("SELECT count(*)::bigint FROM session_log WHERE session_key = \(key)")
            #expect(try rows.first?.decode(Int.self, at: 0) == expected)
        }
        let untouched = try await pool.query(
            "SELECT answers::text FROM session_log WHERE session_key = \(februaryBoundary) AND rev = 2")
        #expect(try untouched.first?.decode(String.self, at: 0) == #"{"email": "a@example.com"}"#)
        _ = (januaryCompleted, januaryExpired, aprilPast)
    }
}
