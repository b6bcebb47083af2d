import ParleyServer
import Testing

/// The router-level client (no socket) answers as the wire does: the same statuses, problem
/// documents and headers from the same responder chain, so suites may move onto it without
/// changing what their assertions mean.
@Suite(.timeLimit(.minutes(10))) struct RouterModeTests {
    /// Requests that cross the chain's parts: the inline fast path, authentication, the
    /// problem mapping of unrouted paths and methods, HEAD, and a body over a route's limit.
    static let requests: [(method: String, target: String, headers: [(String, String)], body: [UInt8]?)] = [
        ("GET", "/healthz", [("X-Request-Id", "router-mode-1")], nil),
        ("HEAD", "/healthz", [], nil),
        ("GET", "/v1/nowhere", [("X-Request-Id", "router-mode-2")], nil),
        ("DELETE", "/healthz", [], nil),
        ("GET", "/v1/flows", [], nil),
        ("GET", "/v1/flows", [("Authorization", "Bearer not-a-token")], nil),
        ("POST", "/v1/sessions", [("Content-Type", "application/json")], Array("{".utf8)),
        ("POST", "/v1/sessions", [("Content-Type", "application/json")], [UInt8](repeating: 32, count: 2 << 20)),
        ("GET", "/v1/screens/no-such-flow", [("Parley-Core", "1.2.0")], nil),
        ("GET", "/openapi.json", [], nil),
    ]

    @Test func theRouterClientSeesWhatTheWireShows() async throws {
        let router = try await InProcessServer(.router)
        let live = try await InProcessServer(.live)
        do {
            let viaRouter = router.client
            let viaSocket = live.client
            for request in Self.requests {
                let expected = try await viaSocket.execute(
                    request.method, request.target, headers: request.headers, body: request.body)
                let answered = try await viaRouter.execute(
                    request.method, request.target, headers: request.headers, body: request.body)
                let line = "\(request.method) \(request.target)"
                #expect(answered.status == expected.status, "\(line): \(answered) over the wire: \(expected)")
                #expect(answered.problemType == expected.problemType, "\(line)")
                #expect(answered.body.count == expected.body.count, "\(line): \(answered) / \(expected)")
                #expect(
                    Self.names(answered) == Self.names(expected), "\(line): \(answered.headers) / \(expected.headers)")
                for name in ["Content-Type", "Content-Length", "Cache-Control", "X-Request-Id"]
                where request.headers.contains(where: { $0.0 == "X-Request-Id" }) || name != "X-Request-Id" {
                    #expect(answered.header(name) == expected.header(name), "\(line): \(name)")
                }
            }
            // The chain's metrics count requests handed over as values like requests off a socket.
            let metrics = try await viaRouter.execute("GET", "/metrics").text
            let series = #"parley_http_requests_total{route="/v1/flows",method="GET",status="401"} 2"#
            #expect(metrics.contains(series), "\(metrics.prefix(4000))")
            #expect(router.log.contains("request_id=router-mode-2"), "the access log has the exchange: \(router.log)")
        } catch {
            await router.stop()
            await live.stop()
            throw error
        }
        await router.stop()
        await live.stop()
    }

    /// Header names, minus the ones only a connection sets (`Date`, `Connection`).
    static func names(_ response: RawResponse) -> [String] {
        response.headers.map { $0.name.lowercased() }.filter { $0 != "date" && $0 != "connection" }.sorted()
    }
}
