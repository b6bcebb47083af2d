import ParleyClient
import Testing

/// ``ParleySession/followLive()`` over scripted connections: reconnects with `Last-Event-ID`,
/// drops stale revs, backs off, gives up, stops when told (DESIGN.md "Live sessions").
@Suite(.timeLimit(.minutes(10))) struct LiveFollowingTests {
    static func session(_ transport: ScriptedTransport, attempts: Int = 6) async throws -> ParleySession {
        let retry = RetryPolicy(attempts: attempts, initialDelayMilliseconds: 1, maximumDelayMilliseconds: 4)
        return try await ParleySession.start(
            flow: "f", endpoint: ParleyEndpoint(transport: transport, core: "1.2.0", retry: retry))
    }

    static func revs(_ session: ParleySession) async throws -> [Int] {
        var revs: [Int] = []
        for try await snapshot in session.followLive() { revs.append(snapshot.rev) }
        return revs
    }

    @Test func reconnectsWithTheShownRevAndDropsStaleSnapshots() async throws {
        let transport = ScriptedTransport([
            .events([
                "retry: 1\n\n", ScriptedTransport.event(rev: 2), ": heartbeat\n\n", ScriptedTransport.event(rev: 3),
            ]),
            .events([
                ScriptedTransport.event(rev: 3), ScriptedTransport.event(rev: 2), ScriptedTransport.event(rev: 4),
                ScriptedTransport.event(rev: 5, status: "completed"), ScriptedTransport.event(rev: 6),
            ]),
        ])
        let session = try await Self.session(transport)
        #expect(try await Self.revs(session) == [2, 3, 4, 5], "stale revs dropped; ends after completion")
        #expect(await session.snapshot.rev == 5)
        #expect(await session.snapshot.status == .completed)
        let requests = transport.requests
        #expect(requests.map { $0.headers["Last-Event-ID"] } == ["1", "3"])
        #expect(requests.allSatisfy { $0.path == "/v1/sessions/s1/events" && $0.method == "GET" })
        #expect(
            requests.allSatisfy { $0.headers["Accept"] == "text/event-stream" && $0.headers["Parley-Core"] == "1.2.0" })
    }

    @Test func backsOffThroughFailedConnections() async throws {
        let transport = ScriptedTransport([
            .unreachable, .status(503, ""), .unreachable,
            .events([ScriptedTransport.event(rev: 2, status: "completed")]),
        ])
        #expect(try await Self.revs(try await Self.session(transport)) == [2])
        #expect(transport.requests.count == 4)
    }

    @Test func givesUpAfterTheRetryPolicysAttempts() async throws {
        let transport = ScriptedTransport([.unreachable, .unreachable, .unreachable, .events([])])
        let session = try await Self.session(transport, attempts: 3)
        await #expect { _ = try await Self.revs(session) } throws: { error in
            (error as? ParleyClientError)?.isRetriesExhausted == true
        }
        #expect(transport.requests.count == 3)
    }

    @Test func anExpiredSessionEndsTheFollowWithItsProblem() async throws {
        let problem = #"{"type":"urn:parley:problem:session-expired","title":"Gone","status":410}"#
        let transport = ScriptedTransport([.events([ScriptedTransport.event(rev: 2)]), .status(410, problem)])
        let session = try await Self.session(transport)
        var seen: [Int] = []
        await #expect { for try await snapshot in session.followLive() { seen.append(snapshot.rev) } } throws: {
            error in
            (error as? ParleyClientError)?.isExpired == true
                && (error as? ParleyClientError)?.problemType == "urn:parley:problem:session-expired"
        }
        #expect(seen == [2])
    }

    @Test func stoppingTheConsumerClosesTheConnection() async throws {
        let transport = ScriptedTransport([.events([ScriptedTransport.event(rev: 2)], hangs: true)])
        let session = try await Self.session(transport)
        for try await snapshot in session.followLive() {
            #expect(snapshot.rev == 2)
            break
        }
        // The follower's task is cancelled, which ends its read of the open body: wait for that
        // (30 s is only a hang guard).
        let closed = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                var iterator = transport.closed.makeAsyncIterator()
                return await iterator.next() != nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(closed)
    }

    @Test func aTransportThatCannotStreamIsRefused() async throws {
        struct Plain: ParleyTransport {
            func send(_ request: ParleyRequest) async throws -> ParleyResponse {
                ParleyResponse(status: 201, body: Array(ScriptedTransport.snapshot(rev: 1).utf8))
            }
        }
        let session = try await ParleySession.start(flow: "f", endpoint: ParleyEndpoint(transport: Plain()))
        await #expect(throws: ParleyClientError.self) {
            for try await _ in session.followLive() {}
        }
    }
}
