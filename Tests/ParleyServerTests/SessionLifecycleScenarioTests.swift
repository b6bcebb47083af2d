import Foundation
import ParleyCore
import ParleyServer
import Testing

/// Issue 11: expiry, crashes, privacy of ids, tampered history and hostile input.
@Suite(.timeLimit(.minutes(10))) struct SessionLifecycleScenarioTests {
    @Test func anIdleSessionExpiresIsCountedAndAnswers410() async throws {
        // A database of its own: on the shared one, other suites' servers sweep too and may be the
        // process that expires (and counts) this session.
        let database = try await IsolatedDatabase.create()
        defer { database.close() }
        let server = try database.server(["--session-ttl", "1", "--session-sweep-interval", "0.2"])
        defer { server.stop() }
        do {
            let service = try await database.harness(server)
            let id = try SessionFixture.released(service, prefix: "ttl")
            let snapshot = try service.startSession(id).json
            #expect(try service.client.send("GET", "/v1/sessions/\(snapshot.sessionId)").status == 200)
            // Wait for the sweeper's count (a hang guard, not a timing assertion).
            let series = #"parley_session_expirations_total{flow="\#(id)",version="1"} 1"#
            let deadline = Date().addingTimeInterval(30)
            var metrics = ""
            while Date() < deadline {
                metrics = try service.client.send("GET", "/metrics").text
                if metrics.contains(series) { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(metrics.contains(series), "\(metrics)")
            let gone = try service.client.send("GET", "/v1/sessions/\(snapshot.sessionId)")
            #expect(gone.status == 410 && gone.problemType == "urn:parley:problem:session-expired", "\(gone)")
            let answer = try service.answer(snapshot, ["email": "a@example.com"])
            #expect(answer.status == 410, "\(answer)")
            let rows = try await service.pool.query(
                "SELECT status, rev FROM sessions WHERE key = \(SessionFixture.key(snapshot.sessionId))")
            #expect(try rows.first?.decode(String.self, at: 0) == "expired")
            #expect(try rows.first?.decode(Int.self, at: 1) == 2, "the expiry is a logged change")
            #expect(service.client.serverErrors.isEmpty, "\(service.client.serverErrors)")
        }
    }

    @Test func aCrashBetweenAnswersLosesNothing() async throws {
        try await ServiceHarness.run { service in
            let id = try SessionFixture.released(service, prefix: "crash")
            var snapshot = try service.advance(try service.startSession(id).json, ["email": "a@example.com"])
            snapshot = try service.advance(snapshot, ["purpose": "work"])
            service.servers[0].crash()
            let restarted = try ServerProcess()
            defer { restarted.stop() }
            let client = RawHTTPClient(port: restarted.port)
            let resumed = try client.send("GET", "/v1/sessions/\(snapshot.sessionId)")
            #expect(
                resumed.status == 200 && resumed.json == snapshot.snapshot, "the last acknowledged state: \(resumed)")
            #expect(resumed.json.rev == 3 && resumed.json.step == "employer")
            let next = try service.answer(resumed.json, ["employer": "Acme"], on: client)
            #expect(next.status == 200 && next.json.step == "confirm", "\(next)")
            #expect(client.serverErrors.isEmpty)
        }
    }

    @Test func sessionIdsNeverReachTheLogOrMetrics() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try SessionFixture.released(service, prefix: "privacy")
            var ids: [String] = []
            for _ in 0..<3 {
                var snapshot = try service.startSession(id).json
                ids.append(snapshot.sessionId)
                snapshot = try service.advance(snapshot, ["email": "a@example.com"])
                _ = try service.answer(snapshot, ["purpose": "nope"])
                _ = try service.back(snapshot)
                _ = try service.client.send("GET", "/v1/sessions/\(snapshot.sessionId)")
            }
            let metrics = try service.client.send("GET", "/metrics").text
            // The access log is buffered (flushed within a second): wait for it, as a hang guard.
            var log = service.serverLog(0)
            for _ in 0..<100 where !log.contains("/v1/sessions/{id}/answers") {
                try await Task.sleep(for: .milliseconds(100))
                log = service.serverLog(0)
            }
            #expect(log.contains("/v1/sessions/{id}/answers"), "the access log shows the route: \(log.suffix(2000))")
            for sessionId in ids {
                #expect(!log.contains(sessionId), "a session id in the log")
                #expect(!metrics.contains(sessionId), "a session id in /metrics")
            }
        }
    }

    @Test func unknownMalformedAndIllFormedRequestsGetProblems() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try SessionFixture.released(service, prefix: "input")
            let snapshot = try service.startSession(id).json
            for bad in ["AAAAAAAAAAAAAAAAAAAAAA", "not-an-id", "%27%20OR%201=1", String(repeating: "x", count: 300)] {
                let response = try service.client.send("GET", "/v1/sessions/\(bad)")
                #expect(response.status == 404 && response.isProblem, "\(bad): \(response)")
                let answer = try service.client.sendJSON(
                    "POST", "/v1/sessions/\(bad)/answers", #"{"rev": 1, "step": "email", "answers": {}}"#)
                #expect(answer.status == 404, "\(bad): \(answer)")
            }
            let path = "/v1/sessions/\(snapshot.sessionId)/answers"
            let cases: [(String, Int)] = [
                (#"{"step": "email", "answers": {"email": "a@example.com"}}"#, 400),
                (#"{"rev": "1", "step": "email", "answers": {}}"#, 400),
                (#"{"rev": 1, "answers": {}}"#, 400),
                (#"{"rev": 1, "step": "email", "answers": {"email": 5}}"#, 400),
                (#"{"rev": 1, "step": "email"}"#, 400),
                ("[1,", 400),
            ]
            for (body, status) in cases {
                let response = try service.client.sendJSON("POST", path, body)
                #expect(response.status == status && response.isProblem, "\(body): \(response)")
            }
            let noFlow = try service.startSession("no-such-flow-\(UUID().uuidString.prefix(6))")
            #expect(noFlow.status == 404 && noFlow.isProblem, "\(noFlow)")
            let badCore = try service.startSession(id, core: "one")
            #expect(badCore.status == 400 && badCore.isProblem, "\(badCore)")
            let untouched = try service.client.send("GET", "/v1/sessions/\(snapshot.sessionId)")
            #expect(untouched.json.rev == 1, "nothing above changed the session")
            let cached = try service.client.send(
                "GET", "/v1/sessions/\(snapshot.sessionId)", headers: [("If-None-Match", "\"1\"")])
            #expect(cached.status == 304 && cached.header("ETag") == "\"1\"", "\(cached)")
        }
    }

    @Test func aTamperedHistoryIsNeverCompleted() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try SessionFixture.released(service, prefix: "tamper")
            var snapshot = try service.startSession(id).json
            snapshot = try service.advance(snapshot, ["email": "a@example.com"])
            snapshot = try service.advance(snapshot, ["purpose": "work"])
            snapshot = try service.advance(snapshot, ["employer": "Acme"])
            // Rewrite the logged e-mail behind the server's back, as someone with database access
            // could: the log refuses updates unless a transaction declares history maintenance
            // (migration 0006). Not `ALTER TABLE … DISABLE TRIGGER`: its exclusive lock queues
            // every server's session_log write behind whatever the shared test database is doing.
            let key = SessionFixture.key(snapshot.sessionId)
            try await service.pool.withTransaction { connection in
                try await connection.query("SELECT set_config('parley.history_maintenance', 'on', true)")
                try await connection.query(
                    """
                    UPDATE session_log SET answers = '{"email": "x@example.com"}'
                    WHERE session_key = \(key) AND step = 'email' AND kind = 'answer'
                    """)
            }
            let refused = try service.answer(snapshot, ["emailAgain": "a@example.com"])
            #expect(refused.status == 409 && refused.problemType == "urn:parley:problem:session-replay-failed")
            let completions = try await service.pool.query(
                "SELECT count(*)::bigint FROM completions WHERE session_key = \(key)")
            #expect(try completions.first?.decode(Int.self, at: 0) == 0, "never completed")
            // The log is the session's truth (issue 27): its latest rev is the session's rev.
            let row = try await service.pool.query(
                "SELECT status, (SELECT max(rev) FROM session_log WHERE session_key = \(key)) FROM sessions WHERE key = \(key)"
            )
            #expect(try row.first?.decode(String.self, at: 0) == "active")
            #expect(try row.first?.decode(Int.self, at: 1) == snapshot.rev, "nothing of the change was written")
            #expect(service.serverLog(0).contains("its history does not replay"), "a logged error")
        }
    }

    @Test func supportStaffSeeASessionAndItsLog() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try SessionFixture.released(service, prefix: "show")
            var snapshot = try service.startSession(id).json
            snapshot = try service.advance(snapshot, ["email": "a@example.com"])
            let shown = try ParleyCommand.run(["session", "show", "--", snapshot.sessionId])
            #expect(shown.status == 0, "\(shown.stderr)")
            let json = try JSONParser.parse(Array(shown.stdout.utf8))
            #expect(json["snapshot"]?.rev == 2 && json["snapshot"]?.step == "purpose")
            #expect(json["log"]?.arrayValue?.map { $0["kind"] } == ["start", "answer"])
            #expect(json["log"]?.arrayValue?.last?["answers"] == ["email": "a@example.com"])
            let unknown = try ParleyCommand.run(["session", "show", "nope"])
            #expect(unknown.status == 1 && unknown.stderr.contains("no session"), "\(unknown.stderr)")
        }
    }
}
