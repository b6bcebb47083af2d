import Foundation
import ParleyCore
import ParleyCrypto
import ParleyPostgres
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `parley keys rotate-data` (issue 18): after it the old key may be deleted, and a run killed
/// halfway finishes when started again, with nothing lost. On a database of its own: a rotation
/// re-encrypts every row, including those of suites running in parallel.
@Suite(.timeLimit(.minutes(10)), .offCooperativePool) struct DataKeyRotationScenarioTests {
    @Test func aRotationKilledHalfwayAndRunAgainLeavesEverythingReadableWithTheNewKeyAlone() async throws {
        let database = try await IsolatedDatabase.create()
        defer { database.close() }
        let old = IsolatedDatabase.keyFile(0x11)
        let new = IsolatedDatabase.keyFile(0x22)
        defer { try? FileManager.default.removeItem(atPath: new) }
        let (oldId, newId) = (Self.keyId(0x11), Self.keyId(0x22))

        // Before: sessions sealed with the old key, completed and half-way, with idempotency
        // records and outbox rows (a webhook that never answers keeps them pending).
        var server = try database.server(["--webhook-allow-private"], environment: ["PARLEY_DATA_KEY_FILE": old])
        var service = try await database.harness(server)
        _ = try service.registerWebhook("http://127.0.0.1:9/never")
        let flow = try SensitiveAnswersScenarioTests.released(service, prefix: "rotate")
        var emails: [String] = []
        var halfway: [JSONValue] = []
        var completed: [String] = []
        for index in 0..<6 {
            let email = "rotate-\(index)-\(UUID().uuidString.prefix(6).lowercased())@example.com"
            emails.append(email)
            let started = try service.startSession(flow).json
            let first = try service.answer(started, ["email": email], key: "first-\(index)")
            try #require(first.status == 200, "\(first)")
            if index % 2 == 0 {
                halfway.append(first.json)
                continue
            }
            var snapshot = try service.advance(first.json, ["purpose": "holiday"])
            snapshot = try service.advance(snapshot, ["destination": "Lyon"])
            snapshot = try service.advance(snapshot, ["emailAgain": email])
            #expect(snapshot["status"] == "completed")
            completed.append(snapshot.sessionId)
        }
        #expect(try await Self.sealedValues(database.pool, keyId: oldId) > 10)
        server.stop()

        // The operator's first step: every server seals with the new key and still opens the old one.
        server = try database.server(
            ["--webhook-allow-private", "--previous-data-key-file", old], environment: ["PARLEY_DATA_KEY_FILE": new])
        service = try await database.harness(server)
        let environment = ["PARLEY_DATABASE_URL": database.url, "PARLEY_DATA_KEY_FILE": old]
        let rotation = ["keys", "rotate-data", "--new-key", new]
        let killed = try ParleyProcess.start(
            rotation + ["--batch-size", "1", "--pause", "3"], environment: environment)
        // Killed as a crash would, once its first batch has committed (a hang guard, not a bound).
        let deadline = Date().addingTimeInterval(60)
        while try await Self.sealedValues(database.pool, keyId: newId) == 0, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(killed.process.processIdentifier, SIGKILL)
        _ = killed.wait()
        #expect(try await Self.sealedValues(database.pool, keyId: newId) > 0, "the first batch committed")
        #expect(try await Self.sealedValues(database.pool, keyId: oldId) > 0, "killed halfway")

        // The service keeps working meanwhile.
        let moved = try service.advance(halfway[0], ["purpose": "holiday"])
        halfway[0] = moved

        let finished = try ParleyExecutable.run(
            rotation + ["--batch-size", "2"], environment: environment, timeout: 120)
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(finished.stderr.contains("rotate-data: sessions:"), "progress on stderr: \(finished.stderr)")
        #expect(try await Self.sealedValues(database.pool, keyId: oldId) == 0, "nothing needs the old key")
        server.stop()

        // The old key file is gone: everything still reads with the new key alone.
        try FileManager.default.removeItem(atPath: old)
        server = try database.server(environment: ["PARLEY_DATA_KEY_FILE": new])
        defer { server.stop() }
        service = try await database.harness(server)
        let newOnly = ["PARLEY_DATABASE_URL": database.url, "PARLEY_DATA_KEY_FILE": new]
        for (index, id) in completed.enumerated() {
            let shown = try ParleyExecutable.run(["session", "show", "--reveal", "--", id], environment: newOnly)
            #expect(shown.status == 0 && shown.stdout.contains(emails[2 * index + 1]), "\(shown.stderr)")
        }
        for (index, snapshot) in halfway.enumerated() {
            let fetched = try service.client.send("GET", "/v1/sessions/\(snapshot.sessionId)")
            #expect(fetched.status == 200, "\(fetched)")
            // Completing replays the whole sealed log and checks the e-mail from the first step.
            var current = fetched.json
            if current.step == "purpose" { current = try service.advance(current, ["purpose": "holiday"]) }
            current = try service.advance(current, ["destination": "Nice"])
            current = try service.advance(current, ["emailAgain": emails[2 * index]])
            #expect(current["status"] == "completed")
        }
        let export = try ParleyExecutable.run(["export", "completions", "--flow", flow], environment: newOnly)
        #expect(export.status == 0, "\(export.stderr)")
        for email in emails { #expect(export.stdout.contains(email), "the export opens every answer") }
    }

    /// A test key's id, as ``DataKeyring`` names it.
    static func keyId(_ byte: UInt8) -> String {
        String(Hex.encode(SHA256.hash([UInt8](repeating: byte, count: 32))).prefix(8))
    }

    /// How many rows of every sealing table hold a value sealed with `keyId`.
    static func sealedValues(_ pool: PostgresPool, keyId: String) async throws -> Int {
        let rows = try await pool.query(
            """
            SELECT (SELECT count(*) FROM sessions
                    WHERE (path::text || "values"::text || forward::text) LIKE '%' || \(keyId) || ':%')
                 + (SELECT count(*) FROM session_log WHERE answers::text LIKE '%' || \(keyId) || ':%')
                 + (SELECT count(*) FROM completions WHERE answers::text LIKE '%' || \(keyId) || ':%')
                 + (SELECT count(*) FROM session_idempotency
                    WHERE convert_from(response, 'UTF8') LIKE '$sealed:' || \(keyId) || ':%')
                 + (SELECT count(*) FROM webhook_deliveries
                    WHERE convert_from(payload, 'UTF8') LIKE '%"$sealed":%' || \(keyId) || ':%')
            """)
        return try rows.first?.decode(Int.self, at: 0) ?? 0
    }
}
