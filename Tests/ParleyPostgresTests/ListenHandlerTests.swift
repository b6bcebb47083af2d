import ParleyPostgres
import Synchronization
import Testing

/// Handler subscriptions (`PostgresPool.listen(channel:handler:)`): notifications run the handler
/// on the listener's thread, a cancelled subscription is not called again.
@Suite(.timeLimit(.minutes(10))) struct ListenHandlerTests {
    /// Polls `condition` every 10 ms until it holds or `timeout` passes.
    func eventually(within timeout: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test func aHandlerReceivesItsChannelsNotificationsUntilCancelled() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let channel = TestDatabase.uniqueName("handler")
        let received = Mutex<[String]>([])
        let subscription = try await pool.listen(channel: channel) { notification in
            received.withLock { $0.append(notification.payload) }
        }
        let stream = try await pool.listen(channel: channel)
        try await pool.notify(channel: channel, payload: "first")
        try await pool.notify(channel: channel, payload: "second")
        #expect(await eventually { received.withLock { $0 } == ["first", "second"] })
        subscription.cancel()
        try await pool.notify(channel: channel, payload: "third")
        // The stream on the same channel sees all three: once it has the third, the listener
        // has delivered it, and the cancelled handler must not have had it.
        var iterator = stream.makeAsyncIterator()
        var payloads: [String] = []
        while payloads.count < 3, let next = await iterator.next() { payloads.append(next.payload) }
        #expect(payloads == ["first", "second", "third"])
        #expect(received.withLock { $0 } == ["first", "second"])
    }

    /// A payload handler reads each payload's bytes in place, alone on its channel (no `String` is
    /// made) or beside a stream that gets the same payloads as text; cancelled, it is not called.
    @Test func aPayloadHandlerReadsEachPayloadsBytes() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let channel = TestDatabase.uniqueName("payload")
        let received = Mutex<[[UInt8]]>([])
        let subscription = try await pool.listen(channel: channel) { (notification: PostgresPayload) in
            guard case .bytes(let payload) = notification else { return }
            received.withLock { $0.append(Array(payload)) }
        }
        try await pool.notify(channel: channel, payload: "alone 🛂")
        try await pool.notify(channel: channel, payload: "")
        #expect(await eventually { received.withLock { $0 } == [Array("alone 🛂".utf8), []] })
        let stream = try await pool.listen(channel: channel)
        try await pool.notify(channel: channel, payload: "abc:1,def:2")
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.payload == "abc:1,def:2")
        #expect(await eventually { received.withLock { $0.count } == 3 })
        #expect(received.withLock { $0.last } == Array("abc:1,def:2".utf8))
        subscription.cancel()
        try await pool.notify(channel: channel, payload: "after")
        #expect(await iterator.next()?.payload == "after")
        #expect(received.withLock { $0.count } == 3)
    }

    /// A payload handler is told when the listener reconnected (notifications may have been lost).
    @Test func aPayloadHandlerHearsOfAReconnect() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let channel = TestDatabase.uniqueName("payload-reconnect")
        let reconnects = Mutex(0)
        let subscription = try await pool.listen(channel: channel) { (notification: PostgresPayload) in
            if case .reconnect = notification { reconnects.withLock { $0 += 1 } }
        }
        defer { subscription.cancel() }
        let killed = try await pool.query(
            """
            SELECT pg_terminate_backend(pid, 5000) AS done FROM pg_stat_activity
            WHERE query = \("LISTEN \"\(channel)\"")
            """)
        #expect(killed.count == 1)
        #expect(await eventually(within: .seconds(10)) { reconnects.withLock { $0 } == 1 })
    }
}
