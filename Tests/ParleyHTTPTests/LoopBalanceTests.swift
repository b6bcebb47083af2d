import Testing

@testable import ParleyHTTP

@Suite(.timeLimit(.minutes(10))) struct LoopBalanceTests {
    /// SO_REUSEPORT places connections by a hash of their addresses (40 often split 16/24); a loop
    /// that already serves two more than another hands new ones over, so the split stays even.
    @Test func keepAliveConnectionsAreSpreadEvenlyOverTheLoops() async throws {
        let live = try LiveServer.start()
        var clients: [TestClient] = []
        for _ in 0..<40 {
            let client = try TestClient(port: live.port)
            try client.send(.get("/healthz"))
            #expect(try client.readResponse().status == 200)  // answered: the connection is registered
            clients.append(client)
        }
        let counts = live.server.loopConnectionCounts
        #expect(counts.reduce(0, +) == 40, "\(counts)")
        #expect((counts.max() ?? 0) - (counts.min() ?? 0) <= 2, "\(counts)")
        clients = []
        await live.stop()
    }
}
