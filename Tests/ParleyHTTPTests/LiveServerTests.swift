import Foundation
import Glibc
import Testing

@testable import ParleyHTTP

@Suite(.serialized, .timeLimit(.minutes(10))) struct LiveServerTests {
    @Test func keepAliveServesManyRequestsOnOneConnection() async throws {
        let live = try LiveServer.start()
        let client = try TestClient(port: live.port)
        for _ in 0..<5 {
            try client.send(.get("/healthz"))
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == #"{"status":"ok"}"#)
            #expect(response.header("Date")?.hasSuffix("GMT") == true)
            #expect(response.header("Connection") == nil)
        }
        await live.stop()
    }

    @Test func pipelinedResponsesKeepRequestOrder() async throws {
        let live = try LiveServer.start()
        let client = try TestClient(port: live.port)
        try client.send(.get("/slow/150") + .get("/healthz") + .get("/big/3") + .get("/slow/10"))
        #expect(try client.readResponse().text == "slept")
        #expect(try client.readResponse().text == #"{"status":"ok"}"#)
        #expect(try client.readResponse().text == "xxx")
        #expect(try client.readResponse().text == "slept")
        await live.stop()
    }

    @Test func pipeliningClientThatReadsLateGetsEveryResponse() async throws {
        let live = try LiveServer.start { $0.maxQueuedResponseBytes = 16 * 1024 }
        let client = try TestClient(port: live.port)
        try client.send(String(repeating: .get("/big/40000"), count: 200) + .get("/healthz"))
        usleep(200_000)  // 8 MB of responses: more than the socket buffers hold, so parsing parks
        for _ in 0..<200 { #expect(try client.readResponse().body.count == 40000) }
        #expect(try client.readResponse().text == #"{"status":"ok"}"#)
        await live.stop()
    }

    @Test func blockingHandlersDoNotStarveOtherAsyncHandlers() async throws {
        let probe = HandlerProbe()
        let live = try LiveServer.start(router: LiveServer.router(probe: probe))
        // More blocked handlers than the machine has cores (Swift's cooperative pool width).
        let blocked = try (0..<4).map { _ in try TestClient(port: live.port) }
        for client in blocked { try client.send(.get("/held")) }
        #expect(await probe.waitForEntries(4), "the blocking handlers never started")
        // While all four still hold their threads, an async handler is served.
        let other = try TestClient(port: live.port, timeout: 20)
        try other.send(.get("/slow/10"))
        #expect(try other.readResponse().text == "slept")
        probe.release()
        for client in blocked { #expect(try client.readResponse().text == "held") }
        await live.stop()
    }

    @Test func halfClosedClientStillGetsItsResponses() async throws {
        let live = try LiveServer.start()
        let client = try TestClient(port: live.port)
        try client.send(.get("/healthz") + .get("/slow/100"))
        client.finishSending()
        #expect(try client.readResponse().status == 200)
        let last = try client.readResponse()
        #expect(last.text == "slept")
        #expect(client.isClosedByServer())
        await live.stop()
    }

    @Test func expectContinueGetsInterimResponseBeforeBody() async throws {
        let live = try LiveServer.start()
        let client = try TestClient(port: live.port)
        try client.send("POST /echo HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        #expect(try client.readResponse().status == 100)
        try client.send("hello")
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "hello")
        await live.stop()
    }

    @Test func oversizedBodyIs413BeforeAnyBodyIsSent() async throws {
        let live = try LiveServer.start()
        let client = try TestClient(port: live.port)
        try client.send("POST /small HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 9\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByServer())
        await live.stop()
    }

    @Test func chunkedBodyOverRouteLimitIs413() async throws {
        let live = try LiveServer.start()
        let client = try TestClient(port: live.port)
        try client.send(
            "POST /small HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n5\r\nworld\r\n")
        #expect(try client.readResponse().status == 413)
        await live.stop()
    }

    @Test func chunkedBodyIsDecoded() async throws {
        let live = try LiveServer.start()
        let client = try TestClient(port: live.port)
        try client.send("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n")
        try client.send("2\r\nde\r\n0\r\nTrailer-Field: 1\r\n\r\n")
        #expect(try client.readResponse().text == "abcde")
        try client.send(.get("/healthz"))
        #expect(try client.readResponse().status == 200)
        await live.stop()
    }

    @Test func http10ClosesUnlessKeepAliveIsAsked() async throws {
        let live = try LiveServer.start()
        let plain = try TestClient(port: live.port)
        try plain.send("GET /healthz HTTP/1.0\r\n\r\n")
        let response = try plain.readResponse()
        #expect(response.status == 200)
        #expect(response.header("Connection") == "close")
        #expect(plain.isClosedByServer())

        let kept = try TestClient(port: live.port)
        try kept.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try kept.readResponse().header("Connection") == "keep-alive")
        try kept.send("GET /healthz HTTP/1.0\r\n\r\n")
        #expect(try kept.readResponse().status == 200)
        #expect(kept.isClosedByServer())
        await live.stop()
    }

    @Test func headSendsHeadersOnly() async throws {
        let live = try LiveServer.start()
        let client = try TestClient(port: live.port)
        try client.send("HEAD /big/100 HTTP/1.1\r\nHost: t\r\n\r\n")
        let response = try client.readResponse(head: true)
        #expect(response.header("Content-Length") == "100")
        try client.send(.get("/healthz"))
        #expect(try client.readResponse().text == #"{"status":"ok"}"#)
        await live.stop()
    }

    @Test func malformedRequestGets400AndClose() async throws {
        let live = try LiveServer.start()
        let client = try TestClient(port: live.port)
        try client.send("GET / HTTP/1.1\r\nHost : t\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 400)
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByServer())
        await live.stop()
    }

    @Test func longRequestLineIs414AndLargeHeaderIs431() async throws {
        let live = try LiveServer.start {
            $0.maxRequestLineBytes = 64
            $0.maxHeaderBytes = 128
        }
        let long = try TestClient(port: live.port)
        try long.send(.get("/" + String(repeating: "a", count: 100)))
        #expect(try long.readResponse().status == 414)
        let large = try TestClient(port: live.port)
        try large.send(.get("/healthz", "X-Big: \(String(repeating: "b", count: 200))\r\n"))
        #expect(try large.readResponse().status == 431)
        await live.stop()
    }

    @Test func unsupportedVersionIs505() async throws {
        let live = try LiveServer.start()
        let client = try TestClient(port: live.port)
        try client.send("GET /healthz HTTP/2.0\r\n\r\n")
        #expect(try client.readResponse().status == 505)
        await live.stop()
    }

    @Test func thrownErrorsBecomeOpaque500() async throws {
        let live = try LiveServer.start()
        let client = try TestClient(port: live.port)
        try client.send(.get("/fail"))
        let response = try client.readResponse()
        #expect(response.status == 500)
        #expect(!response.text.contains("Cancellation"))
        await live.stop()
    }

    @Test func largeResponseSurvivesAFullSocketBuffer() async throws {
        let live = try LiveServer.start()
        let client = try TestClient(port: live.port)
        try client.send(.get("/big/8000000"))
        usleep(200_000)  // let the server fill the socket buffer and wait for EPOLLOUT
        let response = try client.readResponse()
        #expect(response.body.count == 8_000_000)
        await live.stop()
    }

    @Test func blockingHandlerDoesNotStallOtherConnections() async throws {
        let probe = HandlerProbe()
        let live = try LiveServer.start(router: LiveServer.router(probe: probe))
        let blocked = try TestClient(port: live.port)
        try blocked.send(.get("/held"))
        #expect(await probe.waitForEntries(1), "the blocking handler never started")
        // The handler still holds its thread (nothing releases it before this answer).
        let fast = try TestClient(port: live.port, timeout: 20)
        try fast.send(.get("/healthz"))
        #expect(try fast.readResponse().status == 200)
        probe.release()
        #expect(try blocked.readResponse().text == "held")
        await live.stop()
    }
}
