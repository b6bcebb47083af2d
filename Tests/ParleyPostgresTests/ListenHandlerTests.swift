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
}
