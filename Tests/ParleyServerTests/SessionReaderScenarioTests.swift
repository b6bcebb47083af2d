import Foundation
import ParleyCore
import ParleyPostgres
import Testing

/// Issue 27: sessions the snapshot cache does not hold are read in batches, one statement for the
/// misses of concurrent requests, each request getting its own session's state.
@Suite(.timeLimit(.minutes(10))) struct SessionReaderScenarioTests {
    @Test func concurrentMissesAreReadTogetherAndEachGetsItsOwnSession() async throws {
        try await ServiceHarness.run(inProcess: 2) { service in
            let flow = try SessionFixture.released(service, prefix: "reads")
            // Started (and every other one answered) on the first server: the second caches none.
            var expected: [(id: String, rev: Int, step: String)] = []
            for index in 0..<40 {
                var snapshot = try service.startSession(flow).json
                if index.isMultiple(of: 2) {
                    snapshot = try service.advance(snapshot, ["email": "r\(index)@example.com"])
                }
                expected.append((snapshot.sessionId, snapshot.rev, snapshot.step))
            }
            #expect(Set(expected.map(\.rev)) == [1, 2], "fixture sanity: sessions at two revs")
            let unknown = (0..<5).map { _ in FlowFixture.uniqueId("no-such-session") }
            let other = service.clients[1]
            let before = try SessionReadMetrics(other)
            let targets = expected.map(\.id) + unknown
            let responses = ConcurrencyScenarioTests.concurrently(targets.count) { index in
                try other.send("GET", "/v1/sessions/\(targets[index])", headers: [("Parley-Core", "1.2.0")])
            }
            for (index, result) in responses.enumerated() {
                let response = try result.get()
                if index < expected.count {
                    let want = expected[index]
                    #expect(response.status == 200, "\(response)")
                    #expect(response.json.sessionId == want.id && response.json.rev == want.rev)
                    #expect(response.json.step == want.step, "session \(index) got another session's state")
                } else {
                    #expect(response.status == 404, "an unknown id among known ones: \(response)")
                }
            }
            let after = try SessionReadMetrics(other)
            #expect(after.reads - before.reads == targets.count, "every miss read once")
            #expect(after.batches - before.batches < targets.count, "concurrent misses shared statements: \(after)")
        }
    }

    /// `parley serve --session-cache` bounds what a process keeps: with room for one session,
    /// the newer of two just started is answered from memory and the older is read first.
    @Test func theSessionCacheOptionBoundsWhatAProcessKeeps() async throws {
        let database = try await IsolatedDatabase.create()
        defer { database.close() }
        let server = try database.server(["--session-cache", "1"])
        defer { server.stop() }
        let service = try await database.harness(server)
        let flow = try SessionFixture.released(service, prefix: "cache-one")
        let older = try service.startSession(flow).json
        let newer = try service.startSession(flow).json
        let start = try SessionReadMetrics(service.client)
        _ = try service.advance(newer, ["email": "newer@example.com"])
        let afterNewer = try SessionReadMetrics(service.client)
        #expect(afterNewer.reads == start.reads, "the session the cache holds is not read: \(afterNewer)")
        _ = try service.advance(older, ["email": "older@example.com"])
        let afterOlder = try SessionReadMetrics(service.client)
        #expect(afterOlder.reads == start.reads + 1, "the evicted session is read once: \(afterOlder)")
    }
}

/// The session reader's series from `/metrics`.
struct SessionReadMetrics: CustomStringConvertible {
    let batches: Int
    let reads: Int

    init(_ client: RawHTTPClient) throws {
        let text = try client.send("GET", "/metrics").text
        batches = GroupCommitMetrics.value("parley_session_read_batches_total", in: text)
        reads = GroupCommitMetrics.value("parley_session_reads_total", in: text)
    }

    var description: String { "\(reads) sessions read in \(batches) statements" }
}
