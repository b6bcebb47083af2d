import Foundation
import Logging
import ParleyHTTP
import Testing

/// `HTTPRoute.startsOnLoop` (issue 27): such a route's off-loop work runs on the connection's
/// event loop until it first suspends and on a responder after; a larger body, or a route
/// without the flag, starts on a responder as before.
@Suite(.timeLimit(.minutes(1))) struct StartsOnLoopTests {
    /// `/thread` answers inline with the loop's thread; the others answer "<thread before the
    /// first suspension> <thread after it>", or `/at-once` without suspending at all.
    static func router() -> Router {
        var router = Router()
        router.inline("GET", "/thread") { _, _ in .text("\(Self.thread())") }
        let suspending: InlineHandler<RequestContext> = { _, _ in
            .offLoop {
                let before = Self.thread()
                await Task.yield()
                return .text("\(before) \(Self.thread())")
            }
        }
        router.add("POST", "/starts", route: HTTPRoute(startsOnLoop: true, handler: suspending))
        router.add("POST", "/plain", route: HTTPRoute(handler: suspending))
        router.add(
            "POST", "/at-once",
            route: HTTPRoute(startsOnLoop: true) { _, _ in .offLoop { .text("\(Self.thread())") } })
        return router
    }

    /// The running thread's identity. Not `pthread_self()`: glibc declares it `const`, so the
    /// optimiser kept its value across the work's suspension.
    static func thread() -> String { "\(Unmanaged.passUnretained(Thread.current).toOpaque())" }

    static func post(_ path: String, body: Int) -> String {
        "POST \(path) HTTP/1.1\r\nHost: test\r\nContent-Length: \(body)\r\n\r\n"
            + String(repeating: "x", count: body)
    }

    @Test func smallRequestsStartOnTheirLoopAndResumeOnAResponder() async throws {
        let live = try LiveServer.start(router: Self.router())
        let client = try TestClient(port: live.port)
        try client.send(.get("/thread"))
        let loop = try client.readResponse().text
        try client.send(Self.post("/starts", body: 16))
        let threads = try client.readResponse().text.split(separator: " ").map(String.init)
        #expect(threads.count == 2)
        #expect(threads.first == loop, "the work started on the connection's loop")
        #expect(threads.last != loop, "and went on on a responder once it suspended")
        await live.stop()
    }

    @Test func workThatNeverSuspendsIsAnsweredFromTheLoop() async throws {
        let live = try LiveServer.start(router: Self.router())
        let client = try TestClient(port: live.port)
        try client.send(.get("/thread"))
        let loop = try client.readResponse().text
        for _ in 0..<3 {
            try client.send(Self.post("/at-once", body: 2))
            #expect(try client.readResponse().text == loop)
        }
        await live.stop()
    }

    @Test func largerBodiesAndOtherRoutesStartOnAResponder() async throws {
        let live = try LiveServer.start(router: Self.router())
        let client = try TestClient(port: live.port)
        try client.send(.get("/thread"))
        let loop = try client.readResponse().text
        try client.send(Self.post("/starts", body: HTTPRoute.maxBodyBytesStartingOnLoop + 1))
        #expect(try client.readResponse().text.split(separator: " ").first.map(String.init) != loop)
        try client.send(Self.post("/plain", body: 16))
        #expect(try client.readResponse().text.split(separator: " ").first.map(String.init) != loop)
        await live.stop()
    }
}
