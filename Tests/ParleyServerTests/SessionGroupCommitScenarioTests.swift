import Foundation
import ParleyCore
import ParleyPostgres
import Synchronization
import Testing

/// Issue 15 ("Writes"): session answers are group-committed — many sessions' changes share one
/// transaction, each caller is answered after that commit, and a change that loses its rev fails
/// alone.
@Suite(.timeLimit(.minutes(10))) struct SessionGroupCommitScenarioTests {
    @Test func concurrentAnswersToManySessionsAreAllCommittedAtTheirRevs() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let flow = try SessionFixture.released(service, prefix: "grouped")
            let started = try (0..<40).map { _ in try service.startSession(flow).json }
            let before = try GroupCommitMetrics(service)
            let first = ConcurrencyScenarioTests.concurrently(started.count) { index in
                try service.answer(started[index], ["email": "u\(index)@example.com"])
            }
            let moved = try first.map { try $0.get() }
            #expect(moved.allSatisfy { $0.status == 200 && $0.json.rev == 2 }, "\(moved.map(\.status))")
            let second = ConcurrencyScenarioTests.concurrently(moved.count) { index in
                try service.answer(moved[index].json, ["purpose": index.isMultiple(of: 2) ? "work" : "holiday"])
            }
            let done = try second.map { try $0.get() }
            #expect(done.allSatisfy { $0.status == 200 && $0.json.rev == 3 }, "\(done.map(\.status))")
            for (index, snapshot) in started.enumerated() {
                let key = SessionFixture.key(snapshot.sessionId)
                let rows = try await service.pool.query(
                    """
                    SELECT max(l.rev) AS rev,
                           (array_agg(coalesce(l.next_step, l.step) ORDER BY l.rev DESC))[1] AS step,
                           array_agg(l.rev ORDER BY l.rev)::text AS revs
                    FROM session_log l WHERE l.session_key = \(key)
                    """)
                let row = try #require(rows.first)
                #expect(try row.decode(Int.self, column: "rev") == 3)
                #expect(try row.decode(String.self, column: "revs") == "{1,2,3}")
                let step = try row.decode(String.self, column: "step")
                #expect(step == (index.isMultiple(of: 2) ? "employer" : "holiday"))
            }
            let after = try GroupCommitMetrics(service)
            #expect(after.units - before.units == 80, "every answer went through the group committer")
        }
    }

    @Test func aStaleRevInABatchGetsItsConflictWhileItsBatchMatesCommit() async throws {
        // A database of its own: another suite's DDL queued behind the held locks would stall
        // both. Ten connections: four batch slots (at most half the pool), the rest for reads.
        // No statement deadline: the held answers wait on row locks for as long as this test
        // takes to queue the others, which on a loaded machine passes the default 5 s.
        try await DeliveryHarness.run(
            .router,
            database: {
                $0.maximumConnections = 10
                $0.queryTimeout = nil
            }
        ) { service, url in
            let flow = try SessionFixture.released(service, prefix: "batch")
            // Four changes whose appends wait on log rows this test is inserting fill the four batch slots;
            // the next ten queue, then go as one batch when the lock is released.
            let blockers = try (0..<4).map { _ in try service.startSession(flow).json }
            let targets = try (0..<8).map { _ in try service.startSession(flow).json }
            let raced = try service.startSession(flow).json
            let before = try GroupCommitMetrics(service)
            let notifications = try await service.pool.listen(channel: "parley_sessions")
            // Held answers wait for the lock: their reads get a hang guard of 300 s, not 30.
            let lock = try await RowLock.hold(blockers.map { SessionFixture.key($0.sessionId) }, url: url)
            var blocked: [Background<RawResponse>] = []
            var answers: [Background<RawResponse>] = []
            var rivals: [Background<RawResponse>] = []
            do {
                for (index, blocker) in blockers.enumerated() {
                    blocked.append(
                        Background { try service.answer(blocker, ["email": "b\(index)@example.com"], timeout: 300) })
                    try await lock.waitForWaiters(index + 1)
                }
                answers = targets.enumerated().map { index, target in
                    Background { try service.answer(target, ["email": "t\(index)@example.com"], timeout: 300) }
                }
                rivals = ["first@example.com", "second@example.com"].map { email in
                    Background { try service.answer(raced, ["email": email], timeout: 300) }
                }
                try await GroupCommitMetrics.waitUntil(service) { $0.waiting == 10 }
            } catch {
                try await lock.release()
                throw error
            }
            try await lock.release()

            for waiting in blocked + answers {
                let response = try await waiting.wait()
                #expect(response.status == 200 && response.json.rev == 2, "\(response)")
            }
            var rivalResponses: [RawResponse] = []
            for rival in rivals { rivalResponses.append(try await rival.wait()) }
            let winners = rivalResponses.filter { $0.status == 200 }
            let losers = rivalResponses.filter { $0.status == 409 }
            #expect(winners.count == 1 && losers.count == 1, "\(rivalResponses)")
            #expect(losers.first?.problemType == "urn:parley:problem:stale-rev", "\(losers)")
            #expect(
                losers.first?.json["snapshot"] == winners.first?.json.snapshot, "the loser sees the winner's snapshot")
            let after = try GroupCommitMetrics(service)
            #expect(after.batches - before.batches == 5, "four blocked batches, then the ten queued changes as one")
            #expect(after.units - before.units == 14)
            let logged = try await service.pool.query(
                "SELECT count(*)::bigint FROM session_log WHERE session_key = \(SessionFixture.key(raced.sessionId))")
            #expect(try logged.first?.decode(Int.self, at: 0) == 2, "start and the winner's answer only")
            // The ten queued changes committed as one batch announce themselves in one notification
            // (migration 0007): the nine that took their rev, the loser not at all.
            let expected = Set((targets + [raced]).map { Self.hex(SessionFixture.key($0.sessionId)) + ":2" })
            let batch = await Self.firstPayload(of: notifications) { entries in !entries.isDisjoint(with: expected) }
            #expect(batch == expected, "one notification for the whole batch")
        }
    }

    static func hex(_ bytes: Data) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// The entries of the first `parley_sessions` payload that `matches` (nil after a 30 s hang guard).
    static func firstPayload(
        of stream: AsyncStream<PostgresNotification>, matching matches: @escaping @Sendable (Set<String>) -> Bool
    ) async -> Set<String>? {
        await withTaskGroup(of: Set<String>?.self) { group in
            group.addTask {
                for await notification in stream {
                    let entries = Set(notification.payload.split(separator: ",").map(String.init))
                    if matches(entries) { return entries }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

/// The group committer's series from `/metrics`.
struct GroupCommitMetrics {
    let batches: Int
    let units: Int
    let waiting: Int

    init(_ service: ServiceHarness) throws {
        let text = try service.client.send("GET", "/metrics").text
        func value(_ name: String) -> Int { Self.value(name, in: text) }
        batches = value("parley_group_commit_batches_total")
        units = value("parley_group_commit_units_total")
        waiting = value("parley_group_commit_waiting")
    }

    /// The value of the unlabelled series `name` in a `/metrics` text; -1 when absent.
    static func value(_ name: String, in text: String) -> Int {
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? -1
    }

    /// Polls until `condition` holds (a hang guard of 60 s, not a latency bound).
    static func waitUntil(_ service: ServiceHarness, _ condition: (GroupCommitMetrics) -> Bool) async throws {
        for _ in 0..<3_000 {
            if condition(try GroupCommitMetrics(service)) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the group committer never reached the expected state: \(try GroupCommitMetrics(service))")
    }
}
