import ParleyPostgres
import Testing

@Suite(.timeLimit(.minutes(10))) struct ListenTests {
    /// The next element of `stream`, or `nil` after `timeout`.
    func next(
        _ stream: AsyncStream<PostgresNotification>, within timeout: Duration = .seconds(5)
    ) async -> PostgresNotification? {
        await withTaskGroup(of: PostgresNotification?.self) { group in
            group.addTask {
                var iterator = stream.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test func notificationsReachEverySubscriber() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let channel = TestDatabase.uniqueName("Chan nel")
        let first = try await pool.listen(channel: channel)
        let second = try await pool.listen(channel: channel)
        try await pool.notify(channel: channel, payload: "flow:passport 🛂")
        let received = await next(first)
        #expect(received?.channel == channel)
        #expect(received?.payload == "flow:passport 🛂")
        #expect(received?.isReconnect == false)
        #expect(await next(second)?.payload == "flow:passport 🛂")
    }

    @Test func onlyCommittedNotificationsArrive() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let channel = TestDatabase.uniqueName("tx")
        let stream = try await pool.listen(channel: channel)
        struct Abort: Error {}
        await #expect(throws: Abort.self) {
            try await pool.withTransaction { connection in
                try await connection.query("SELECT pg_notify(\(channel), \("rolled back"))")
                throw Abort()
            }
        }
        try await pool.withTransaction { connection in
            try await connection.query("SELECT pg_notify(\(channel), \("committed"))")
        }
        #expect(await next(stream)?.payload == "committed")
    }

    @Test func theListenerReconnectsAndSaysSo() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let channel = TestDatabase.uniqueName("reconnect")
        let stream = try await pool.listen(channel: channel)
        let killed = try await pool.query(
            """
            SELECT pg_terminate_backend(pid, 5000) AS done FROM pg_stat_activity
            WHERE query = \("LISTEN \"\(channel)\"")
            """)
        #expect(killed.count == 1)
        let marker = await next(stream)
        #expect(marker?.isReconnect == true)
        try await pool.notify(channel: channel, payload: "after")
        #expect(await next(stream)?.payload == "after", "listening again on the new connection")
    }
}
