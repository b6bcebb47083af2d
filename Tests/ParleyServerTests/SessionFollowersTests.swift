import ParleyCore
import ParleyHTTP
import Synchronization
import Testing

@testable import ParleyServer

/// How a process's live streams catch up with notified changes (DESIGN.md "Live sessions").
@Suite struct SessionFollowersTests {
    /// A loader the test answers by hand: each call waits until the test hands it a snapshot.
    private final class ManualLoader: Sendable {
        private let waiting = Mutex<[CheckedContinuation<SessionSnapshot?, Never>]>([])
        private let calls = Mutex(0)

        var callCount: Int { calls.withLock { $0 } }

        func load(_ id: String) async -> SessionSnapshot? {
            await withCheckedContinuation { continuation in
                calls.withLock { $0 += 1 }
                waiting.withLock { $0.append(continuation) }
            }
        }

        /// Waits (at most 5 s) for the `number`th call, then answers the oldest waiting one.
        func answer(call number: Int, with snapshot: SessionSnapshot?) async throws {
            let deadline = ContinuousClock.now + .seconds(5)
            while callCount < number || waiting.withLock({ $0.isEmpty }) {
                guard ContinuousClock.now < deadline else {
                    Issue.record("no load call \(number) within 5 s (calls: \(callCount))")
                    return
                }
                try await Task.sleep(for: .milliseconds(5))
            }
            waiting.withLock { $0.removeFirst() }.resume(returning: snapshot)
        }

        /// Whether a call beyond `count` arrives within `wait`.
        func calls(beyond count: Int, within wait: Duration) async throws -> Bool {
            let deadline = ContinuousClock.now + wait
            while ContinuousClock.now < deadline {
                if callCount > count { return true }
                try await Task.sleep(for: .milliseconds(5))
            }
            return callCount > count
        }
    }

    private func snapshot(_ id: SessionID, rev: Int) -> SessionSnapshot {
        let record = SessionRecord(
            id: id, flowId: "f", version: 1, channel: "production", core: "1.2.0", locale: nil, rev: rev,
            status: .active, step: "a", path: [], values: Answers(), forward: [], messages: .array([]),
            expiresAt: 0, month: 202611)
        let screen = ScreenCache.Entry(
            body: Array(#"{"id":"a"}"#.utf8), etag: "\"s\"", served: "a", substitutions: [], headers: [:])
        return SessionSnapshot(record, screen: screen)
    }

    /// One stream of a fresh session that has shown rev 3, followed with a loader the test answers.
    private struct Following {
        let metrics = MetricsRegistry()
        let followers: SessionFollowers
        let id = SessionID.generate()
        let stream: ResponseStream
        let loader = ManualLoader()

        init() throws {
            followers = SessionFollowers(maxStreams: 10, queueBytes: 1 << 20, metrics: metrics)
            stream = try #require(followers.follow(id: id.text, keyHex: id.key.hex, lastEventId: 3))
        }

        var load: SessionFollowers.Loader { { [loader] in await loader.load($0) } }
    }

    /// Whether `count` events were written to streams within 5 s (the read offers them on its task).
    private func sent(_ count: UInt64, _ metrics: MetricsRegistry) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while metrics.counter(.liveEventsSent) < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        return metrics.counter(.liveEventsSent) == count
    }

    /// The HA drill's stream stopped a rev short: the reconnect's read was under way when the
    /// next change was notified, and returned the rev before it. That change must be read again.
    @Test func aChangeNotifiedWhileAResyncReadsIsReadAgain() async throws {
        let following = try Following()
        defer { following.stream.cancel() }
        let (followers, loader, load) = (following.followers, following.loader, following.load)
        let key = following.id.key.hex
        followers.resync(load: load)
        followers.changed(keyHex: key, rev: 5, load: load)
        try await loader.answer(call: 1, with: snapshot(following.id, rev: 4))
        try await loader.answer(call: 2, with: snapshot(following.id, rev: 5))
        #expect(try await sent(2, following.metrics), "revs 4 and 5 each reach the stream")
        #expect(loader.callCount == 2)
    }

    /// A reconnect while a notified change is being read: that read may predate changes the
    /// listener missed, so one more read follows it even when it returned the notified rev.
    @Test func aResyncWhileANotifiedReadRunsReadsOnceMore() async throws {
        let following = try Following()
        defer { following.stream.cancel() }
        let (followers, loader, load) = (following.followers, following.loader, following.load)
        let key = following.id.key.hex
        followers.changed(keyHex: key, rev: 4, load: load)
        // The read has begun (it waits in the loader) before the reconnect is noted.
        #expect(try await loader.calls(beyond: 0, within: .seconds(5)))
        followers.resync(load: load)
        try await loader.answer(call: 1, with: snapshot(following.id, rev: 4))
        try await loader.answer(call: 2, with: snapshot(following.id, rev: 6))
        #expect(try await sent(2, following.metrics), "revs 4 and 6 each reach the stream")
        // Nothing more was asked for: no third read.
        #expect(try await !loader.calls(beyond: 2, within: .milliseconds(100)))
    }
}
