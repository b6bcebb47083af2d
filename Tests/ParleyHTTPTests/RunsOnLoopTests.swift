import Foundation
import Logging
import ParleyHTTP
import Testing

/// `HTTPRoute.runsOnLoop` (issue 27): such a route's off-loop work runs on the connection's
/// event loop, before and after it suspends; a larger body, or a route without the flag, runs
/// on a responder as before.
@Suite(.timeLimit(.minutes(1))) struct RunsOnLoopTests {
    /// `/thread` answers inline with the loop's thread; the others answer "<thread before the
    /// first suspension> <thread after it>" (`/resumed`: resumed by another thread, as the
    /// database poller resumes a request), or `/at-once` without suspending at all.
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
        router.add("POST", "/starts", route: HTTPRoute(runsOnLoop: true, handler: suspending))
        router.add("POST", "/plain", route: HTTPRoute(handler: suspending))
        router.add(
            "POST", "/resumed",
            route: HTTPRoute(runsOnLoop: true) { _, _ in
                .offLoop {
                    let before = Self.thread()
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        Thread { continuation.resume() }.start()
                    }
                    return .text("\(before) \(Self.thread())")
                }
            })
        router.add(
            "POST", "/at-once",
            route: HTTPRoute(runsOnLoop: true) { _, _ in .offLoop { .text("\(Self.thread())") } })
        return router
    }

    /// The running thread's identity. Not `pthread_self()`: glibc declares it `const`, so the
    /// optimiser kept its value across the work's suspension.
    static func thread() -> String { "\(Unmanaged.passUnretained(Thread.current).toOpaque())" }

    static func post(_ path: String, body: Int) -> String {
        "POST \(path) HTTP/1.1\r\nHost: test\r\nContent-Length: \(body)\r\n\r\n"
            + String(repeating: "x", count: body)
    }

    @Test func smallRequestsRunOnTheirLoopBeforeAndAfterTheySuspend() async throws {
        let live = try LiveServer.start(router: Self.router())
        let client = try TestClient(port: live.port)
        try client.send(.get("/thread"))
        let loop = try client.readResponse().text
        for path in ["/starts", "/resumed"] {
            try client.send(Self.post(path, body: 16))
            let threads = try client.readResponse().text.split(separator: " ").map(String.init)
            #expect(threads == [loop, loop], "\(path): the work ran on the connection's loop")
        }
        await live.stop()
    }

    @Test func manyConcurrentRequestsOnBothLoopsAreAllAnswered() async throws {
        let live = try LiveServer.start(router: Self.router())
        let clients = try (0..<16).map { _ in try TestClient(port: live.port) }
        for _ in 0..<5 {
            for client in clients { try client.send(Self.post("/resumed", body: 16)) }
            for client in clients { #expect(try client.readResponse().status == 200) }
        }
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

    @Test func largerBodiesAndOtherRoutesRunOnAResponder() async throws {
        let live = try LiveServer.start(router: Self.router())
        let client = try TestClient(port: live.port)
        try client.send(.get("/thread"))
        let loop = try client.readResponse().text
        try client.send(Self.post("/starts", body: HTTPRoute.maxBodyBytesRunningOnLoop + 1))
        #expect(try client.readResponse().text.split(separator: " ").first.map(String.init) != loop)
        try client.send(Self.post("/plain", body: 16))
        #expect(try client.readResponse().text.split(separator: " ").first.map(String.init) != loop)
        await live.stop()
    }
}
