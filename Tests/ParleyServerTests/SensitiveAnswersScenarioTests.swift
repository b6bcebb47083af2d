import Foundation
import ParleyCore
import ParleyPostgres
import ParleyServer
import Testing

/// Sensitive answers (issue 18): encrypted at rest in every table, readable where needed, and a
/// ciphertext moved to another session does not open.
@Suite(.timeLimit(.minutes(10))) struct SensitiveAnswersScenarioTests {
    @Test func aSensitiveAnswerIsCiphertextInEveryTableAndInAPgDump() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try Self.released(service, prefix: "sealed")
            let email = "secret-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            var snapshot = try service.startSession(id).json
            let first = try service.answer(snapshot, ["email": email], key: "k-1")
            try #require(first.status == 200, "\(first)")
            snapshot = first.json
            snapshot = try service.advance(snapshot, ["purpose": "holiday"])
            // Back to the e-mail step: its answer returns as prefill (stored sealed in `forward`).
            let back = try service.client.sendJSON(
                "POST", "/v1/sessions/\(snapshot.sessionId)/back", #"{"rev": \#(snapshot.rev)}"#,
                headers: [("Idempotency-Key", "k-2")])
            #expect(back.status == 200, "\(back)")
            let backSnapshot = back.json
            #expect(backSnapshot.step == "purpose" || backSnapshot.step == "email")
            snapshot = try service.advance(backSnapshot, ["purpose": "holiday"])
            let wrong = try service.answer(snapshot, ["destination": "Lyon"])
            if wrong.status == 200 { snapshot = wrong.json }
            let mismatch = try service.answer(snapshot, ["emailAgain": "other@example.com"])
            #expect(mismatch.status == 422, "the cross-step rule still reads the sealed e-mail: \(mismatch)")
            snapshot = try service.advance(snapshot, ["emailAgain": email])
            #expect(snapshot["status"] == "completed")

            let key = SessionFixture.key(snapshot.sessionId)
            for (table, column) in [
                ("sessions", "path::text || \"values\"::text || forward::text"),
                ("session_log", "coalesce(answers::text, '')"),
                ("completions", "answers::text"), ("session_idempotency", "encode(response, 'escape')"),
            ] {
                let rows = try await service.pool.query(
                    "SELECT \(unsafeRaw: column) FROM \(unsafeRaw: table) WHERE \(unsafeRaw: table == "sessions" ? "key" : "session_key") = \(key)"
                )
                #expect(!rows.isEmpty, "\(table) has rows for the session")
                for row in rows {
                    let text: String = try row.decode(at: 0)
                    #expect(!text.contains(email), "\(table) holds the plaintext: \(text.prefix(300))")
                }
            }
            let sealed = try await service.pool.query(
                "SELECT answers::text FROM completions WHERE session_key = \(key)")
            let stored: String = try #require(try sealed.first?.decode(at: 0))
            #expect(stored.contains("$sealed"), "\(stored)")

            let dump = try Self.pgDump()
            #expect(dump.contains("$sealed"), "the dump holds the sealed answers")
            #expect(!dump.contains(email), "pg_dump shows the plaintext")

            let shown = try ParleyCommand.run(["session", "show", "--", snapshot.sessionId])
            #expect(shown.status == 0 && !shown.stdout.contains(email) && shown.stdout.contains("[sensitive]"))
            let revealed = try ParleyCommand.run(["session", "show", "--reveal", "--", snapshot.sessionId])
            #expect(revealed.status == 0 && revealed.stdout.contains(email), "\(revealed.stderr)")
        }
    }

    @Test func aCiphertextMovedToAnotherSessionDoesNotOpen() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try Self.released(service, prefix: "moved")
            let email = "moved-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let first = try service.advance(try service.startSession(id).json, ["email": email])
            let second = try service.advance(try service.startSession(id).json, ["email": "b@example.com"])
            // The log holds the answers (issue 27); rewriting it takes a history-maintenance transaction.
            try await service.pool.withTransaction { connection in
                try await connection.query("SELECT set_config('parley.history_maintenance', 'on', true)")
                try await connection.query(
                    """
                    UPDATE session_log SET answers = (SELECT answers FROM session_log
                                                      WHERE session_key = \(SessionFixture.key(first.sessionId))
                                                      AND kind = 'answer')
                    WHERE session_key = \(SessionFixture.key(second.sessionId)) AND kind = 'answer'
                    """)
            }
            let shown = try ParleyCommand.run(["session", "show", "--reveal", "--", second.sessionId])
            #expect(shown.status == 1, "\(shown.stdout)")
            #expect(shown.stderr.contains("does not open"), "\(shown.stderr)")
            #expect(!shown.stderr.contains(email) && !shown.stdout.contains(email))
            let intact = try ParleyCommand.run(["session", "show", "--reveal", "--", first.sessionId])
            #expect(intact.status == 0 && intact.stdout.contains(email))
        }
    }

    @Test func withoutADataKeySensitiveAnswersAreRefusedNotStoredInTheClear() async throws {
        try await ServiceHarness.run(inProcess: 1, configure: { $0.dataKeyring = DataKeyring(current: nil) }) {
            service in
            let id = try Self.released(service, prefix: "nokey")
            let snapshot = try service.startSession(id).json
            // Its own client: the harness counts any 5xx on its clients as a failure.
            let client = service.separateClient()
            let refused = try client.sendJSON(
                "POST", "/v1/sessions/\(snapshot.sessionId)/answers",
                #"{"rev": 1, "step": "email", "answers": {"email": "ada@example.com"}}"#)
            #expect(
                refused.status == 503 && refused.json["type"] == "urn:parley:problem:data-key-missing", "\(refused)")
            let rows = try await service.pool.query(
                "SELECT max(rev) FROM session_log WHERE session_key = \(SessionFixture.key(snapshot.sessionId))")
            #expect(try rows.first?.decode(Int.self, at: 0) == 1, "nothing was stored")
        }
    }

    /// `SessionFixture.signup` with the e-mail and its confirmation marked sensitive, posted and released.
    static func released(_ service: ServiceHarness, prefix: String) throws -> String {
        let id = FlowFixture.uniqueId(prefix)
        // The confirmation repeats the e-mail, so it is sensitive too.
        var flow = SessionFixture.signup(id: id)
        for field in ["email", "emailAgain"] {
            flow = flow.replacingOccurrences(
                of: #""fieldId": "\#(field)", "label": "\#(field)","#,
                with: #""fieldId": "\#(field)", "label": "\#(field)", "sensitive": true,"#)
        }
        precondition(flow.components(separatedBy: "sensitive").count == 3)
        let posted = try service.postFlow(flow)
        guard posted.status == 201 else { throw SessionFixture.Failure(description: "post: \(posted)") }
        guard try service.release(id, version: 1).status == 201 else {
            throw SessionFixture.Failure(description: "release")
        }
        return id
    }

    /// `pg_dump` of the test database (or the one at `url`), as text.
    static func pgDump(_ url: String? = nil) throws -> String {
        let binary =
            ["/usr/bin/pg_dump"]
            + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin/pg_dump" }
        let process = ChildProcess()
        // Under `timeout`, so reading its output to the end and waiting for it have a deadline.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = [
            "--kill-after=5", "120", try #require(binary.first { FileManager.default.isExecutableFile(atPath: $0) }),
            "--data-only", "--dbname", try url ?? TestEnvironment.databaseURL(),
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.runAlone()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
