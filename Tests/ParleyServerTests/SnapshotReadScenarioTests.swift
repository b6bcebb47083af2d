import ParleyCore
import Testing

/// Issue 27 (RSS): a start or an answer caches the session's state without its snapshot; the first
/// read renders the snapshot from that state and keeps it. What a read serves must be exactly what
/// the write returned, from the cached state and then from the kept snapshot.
@Suite(.timeLimit(.minutes(10))) struct SnapshotReadScenarioTests {
    @Test func aReadAfterAWriteServesTheBytesTheWriteReturned() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try SessionFixture.released(service, prefix: "reread")
            let started = try service.startSession(id)
            try #require(started.status == 201, "\(started)")
            let path = "/v1/sessions/\(started.json.sessionId)"
            for read in 1...2 {
                let fetched = try service.client.send("GET", path)
                #expect(
                    fetched.status == 200 && fetched.body == started.body, "read \(read) after the start: \(fetched)")
                #expect(fetched.header("ETag") == "\"1\"")
            }
            let answered = try service.answer(started.json, ["email": "a@example.com"])
            try #require(answered.status == 200, "\(answered)")
            // The answer's response is the snapshot with its "cleared" member first (DESIGN.md
            // "Expressions"); a read serves the snapshot alone.
            let cleared = Array(#"{"cleared":[],"#.utf8)
            try #require(answered.body.starts(with: cleared), "\(answered)")
            let snapshot = [UInt8(ascii: "{")] + answered.body.dropFirst(cleared.count)
            for read in 1...2 {
                let fetched = try service.client.send("GET", path)
                #expect(fetched.status == 200 && fetched.body == snapshot, "read \(read) after the answer: \(fetched)")
                #expect(fetched.header("ETag") == "\"2\"" && fetched.header("Cache-Control") == "private, no-cache")
            }
            let unchanged = try service.client.send("GET", path, headers: [("If-None-Match", "\"2\"")])
            #expect(unchanged.status == 304, "\(unchanged)")
            #expect(service.client.serverErrors.isEmpty, "\(service.client.serverErrors)")
        }
    }
}
