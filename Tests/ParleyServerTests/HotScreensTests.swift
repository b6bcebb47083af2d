import ParleyCore
import ParleyHTTP
import Testing

@testable import ParleyServer

/// Each event loop's memo of its last screen (`HotScreens`) and the per-loop counters behind
/// it: a remembered answer is given only for the same request parts, loop and live-cache
/// generation, shares no storage with the cache's entry, and the counters split by loop still
/// add up and never repeat an id.
@Suite(.timeLimit(.minutes(10))) struct HotScreensTests {
    static func entry(_ body: String) -> ScreenCache.Entry {
        ScreenCache.Entry(
            body: Array(body.utf8), etag: "\"e\"", served: "step", substitutions: [], headers: ["ETag": "\"e\""])
    }

    static let question = HotScreens.Question(
        flow: "intake", step: nil, channel: "production", core: "1.2.0", language: nil)

    @Test func aRememberedScreenIsGivenOnlyForItsQuestionLoopAndGeneration() throws {
        let hot = HotScreens()
        #expect(hot.answer(Self.question, generation: 0, loop: 0) == nil, "nothing remembered yet")
        let entry = Self.entry(#"{"screen":1}"#)
        hot.remember(entry, coreLabel: "1.2", for: Self.question, generation: 3, loop: 0)

        let hit = try #require(hot.answer(Self.question, generation: 3, loop: 0))
        #expect(hit.entry.body == entry.body && hit.coreLabel == "1.2")
        #expect(hot.answer(Self.question, generation: 4, loop: 0) == nil, "a release since: stale")
        #expect(hot.answer(Self.question, generation: 3, loop: 1) == nil, "another loop keeps its own")
        for other in [
            HotScreens.Question(flow: "intake", step: "b", channel: "production", core: "1.2.0", language: nil),
            HotScreens.Question(flow: "intake", step: nil, channel: "beta", core: "1.2.0", language: nil),
            HotScreens.Question(flow: "intake", step: nil, channel: "production", core: "1.0.0", language: nil),
            HotScreens.Question(flow: "intake", step: nil, channel: "production", core: nil, language: nil),
            HotScreens.Question(flow: "intake", step: nil, channel: "production", core: "1.2.0", language: "fr"),
            HotScreens.Question(flow: "other", step: nil, channel: "production", core: "1.2.0", language: nil),
        ] {
            #expect(hot.answer(other, generation: 3, loop: 0) == nil, "\(other)")
        }
    }

    @Test func aLoopsCopySharesNoStorageWithTheCachedEntry() {
        let entry = Self.entry(#"{"screen":2}"#)
        let copy = entry.copy()
        #expect(copy !== entry)
        #expect(copy.body == entry.body && copy.etag == entry.etag)
        let original = entry.body.withUnsafeBufferPointer { $0.baseAddress }
        let copied = copy.body.withUnsafeBufferPointer { $0.baseAddress }
        #expect(original != copied, "the body is copied, not shared")
        #expect(Array(copy.okHeaders.fields.map(\.name)) == Array(entry.okHeaders.fields.map(\.name)))
        #expect(copy.okHeaders["Content-Type"] == "application/json")
    }

    @Test func requestIdsFromEveryLoopAreDistinct() {
        let source = RequestIdSource()
        var seen = Set<String>()
        for round in 0..<2_000 {
            for loop in 0..<20 {  // more loops than parts: they share parts, still distinct
                let id = source.next(loop: loop)
                #expect(id.utf8.count == 15, "\(id)")
                #expect(seen.insert(id).inserted, "\(id) repeated in round \(round)")
            }
        }
        #expect(Set(seen.map { $0.prefix(7) }).count == 1, "one process prefix")
    }

    @Test func countersAndRouteMetricsAddUpEveryLoop() throws {
        let counter = LoopCounter()
        for loop in 0..<40 { counter.add(UInt64(loop), loop: loop) }
        #expect(counter.total == (0..<40).reduce(0) { $0 + UInt64($1) })

        let route = try #require(ServiceRoute.all.first)
        let metrics = RouteMetrics(route: route)
        metrics.record(status: 200, seconds: 0.001, loop: 0)
        metrics.record(status: 200, seconds: 0.001, loop: 1)
        metrics.record(status: 404, seconds: 0.002, loop: 1)
        let text = metrics.lines().map(\.1).joined(separator: "\n")
        #expect(text.contains(#"status="200"} 2"#), "\(text)")
        #expect(text.contains(#"status="404"} 1"#), "\(text)")
        #expect(text.contains(#"_count{route="\#(route.path)",method="\#(route.method)"} 3"#), "\(text)")
    }

    /// End to end: a screen answered many times (so each loop remembers it) is replaced by a
    /// new release at once, and a repeated `Parley-Core` is still refused.
    @Test func aReleaseReplacesARememberedScreen() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = FlowFixture.uniqueId("hot")
            try #require(try service.postFlow(FlowFixture.quickReplies(id: id, title: "First")).status == 201)
            try #require(try service.release(id, version: 1).status == 201)
            for _ in 0..<20 {
                let screen = try service.screen(id, core: "1.2.0")
                #expect(screen.status == 200 && screen.header("Parley-Flow-Version") == "1", "\(screen)")
            }
            let twice = try service.screen(id, core: "1.2.0", headers: [("Parley-Core", "1.2.0")])
            #expect(twice.status == 400 && twice.isProblem, "\(twice)")

            try #require(try service.postFlow(FlowFixture.quickReplies(id: id, title: "Second")).status == 201)
            try #require(try service.release(id, version: 2).status == 201)
            for _ in 0..<20 {
                let screen = try service.screen(id, core: "1.2.0")
                #expect(screen.status == 200 && screen.header("Parley-Flow-Version") == "2", "\(screen)")
            }
        }
    }
}
