import Logging
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

    /// Each loop answers with the responder built for it: requests on connections the two loops
    /// serve reach both responders, and every connection stays with one.
    @Test func eachLoopAnswersWithItsOwnResponder() async throws {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.loopThreads = 2
        var logger = Logger(label: "live")
        logger.logLevel = .critical
        let server = try HTTPServer(
            configuration: configuration,
            responders: { index in
                var router = Router()
                router.inline("GET", "/loop") { _, context in .text("\(index) \(context.loopIndex)") }
                return router
            }, logger: logger)
        let port = try server.start()
        var answers: Set<String> = []
        var clients: [TestClient] = []
        for _ in 0..<8 {
            let client = try TestClient(port: port)
            var seen: Set<String> = []
            for _ in 0..<3 {
                try client.send(.get("/loop"))
                let response = try client.readResponse()
                #expect(response.status == 200)
                seen.insert(String(decoding: response.body, as: UTF8.self))
            }
            #expect(seen.count == 1, "one connection, one loop: \(seen)")
            answers.formUnion(seen)
            clients.append(client)
        }
        #expect(answers == ["0 0", "1 1"], "each loop's responder, and its index in the context: \(answers)")
        clients = []
        await server.shutdown(deadline: .seconds(5))
    }
}
