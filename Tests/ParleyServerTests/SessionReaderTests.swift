import ParleyCore
import ParleyPostgres
import Testing

@testable import ParleyServer

/// The batched session reader itself (issue 27), below the HTTP layer: a session whose stored log
/// cannot be opened must fail alone, never its batch mates. (Through the API that session's
/// answer is a 5xx, which `/openapi.json` rightly does not document, so it is read here.)
@Suite(.timeLimit(.minutes(10))) struct SessionReaderTests {
    @Test func aSessionWhoseLogDoesNotOpenFailsAloneInItsBatch() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let flow = try SessionFixture.released(service, prefix: "reads-bad")
            let ids = try (0..<12).map { _ in try service.startSession(flow).json.sessionId }
            // A rev 2 whose answer is sealed under no key the reader has: its fold cannot open it.
            try await service.pool.query(
                """
                INSERT INTO session_log (session_key, rev, month, kind, step, answers, next_step, core_version,
                                         expires_at, depth)
                SELECT session_key, 2, month, 'answer', step, '{"email": {"$sealed": "k9:not-a-sealed-value"}}',
                       'purpose', core_version, expires_at, 1
                FROM session_log WHERE session_key = \(SessionFixture.key(ids[0])) AND rev = 1
                """)
            let reader = SessionReader(pool: service.pool, sealing: AnswerSealing(keyring: DataKeyring(current: nil)))
            let results = await withTaskGroup(of: (Int, Result<SessionRecord?, any Error>).self) { group in
                for (index, id) in ids.enumerated() {
                    group.addTask {
                        do { return (index, .success(try await reader.read(SessionID(id)))) } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                var results = [Result<SessionRecord?, any Error>?](repeating: nil, count: ids.count)
                for await (index, result) in group { results[index] = result }
                return results
            }
            #expect(throws: (any Error).self, "the unreadable session") { try results[0]?.get() }
            for (index, result) in results.enumerated().dropFirst() {
                let record = try #require(try result?.get(), "batch mate \(index) unread")
                #expect(record.id.text == ids[index] && record.rev == 1, "batch mate \(index): \(record.id.text)")
            }
            #expect(reader.statistics.sessions == ids.count)
        }
    }
}
