import Foundation
import ParleyCore
import Testing

/// Issue 12, live half (DESIGN.md "Live sessions"): a session followed as Server-Sent Events, an
/// agent that says something or moves the session, and changes reaching every process's streams.
@Suite(.serialized, .timeLimit(.minutes(10))) struct LiveSessionScenarioTests {
    @Test func anAgentSaysAndMovesTheSessionAndItsStreamShowsEachChange() async throws {
        try await ServiceHarness.run(inProcess: 1, .live) { service in
            let agent = try await TestEnvironment.token(.agent, pool: service.pool)
            let flow = try SessionFixture.released(service, prefix: "live")
            let started = try service.startSession(flow).json
            let session = started.sessionId
            let stream = try SessionEventStream(port: service.client.port, session: session)
            #expect(stream.head.status == 200)
            #expect(stream.head.header("Content-Type") == "text/event-stream")
            #expect(stream.head.header("Cache-Control") == "no-store")
            let first = try stream.next()
            #expect(first.id == 1 && first.snapshot.rev == 1 && first.snapshot.step == "email")

            let said = try service.agentEvent(session, ["say": ["text": "Hello, I am Ana."]], token: agent)
            #expect(said.status == 200, "\(said)")
            let message = said.json["messages"]?.arrayValue?.first
            #expect(message?["text"] == "Hello, I am Ana." && message?["from"] == "agent" && message?.rev == 2)
            #expect(message?["at"]?.stringValue?.hasSuffix("Z") == true)
            let second = try stream.next()
            #expect(second.id == 2 && second.snapshot["messages"] == said.json["messages"])

            let moved = try service.agentEvent(session, ["goto": "purpose", "rev": 2], token: agent)
            #expect(moved.status == 200 && moved.json.step == "purpose" && moved.json["path"] == ["email"], "\(moved)")
            #expect(try stream.next().snapshot.step == "purpose")
            let back = try service.agentEvent(session, ["goto": "email"], token: agent)
            #expect(back.json.step == "email" && back.json["path"] == [] && back.json.rev == 4, "\(back)")
            #expect(try stream.next().id == 4)

            // Refusals say what is wrong and change nothing.
            let stale = try service.agentEvent(session, ["say": ["text": "late"], "rev": 2], token: agent)
            #expect(stale.status == 409 && stale.problemType == "urn:parley:problem:stale-rev", "\(stale)")
            let unknown = try service.agentEvent(session, ["goto": "nowhere"], token: agent)
            #expect(unknown.status == 422 && unknown.problemType == "urn:parley:problem:unknown-step", "\(unknown)")
            let both = try service.agentEvent(session, ["goto": "email", "say": ["text": "x"]], token: agent)
            #expect(both.status == 400, "\(both)")
            let long = try service.agentEvent(
                session, ["say": ["text": .string(String(repeating: "x", count: 4001))]], token: agent)
            #expect(long.status == 400 && long.text.contains("4000"), "\(long)")
            let author = try service.agentEvent(session, ["say": ["text": "hi"]], token: service.author)
            #expect(author.status == 403, "\(author)")
            #expect(try service.client.send("GET", "/v1/sessions/\(session)").json.rev == 4)

            // A user's answers reach the stream too; completion ends it after the final snapshot.
            var snapshot = back.json
            for answers: Answers in [
                ["email": "a@example.com"], ["purpose": "holiday"], ["destination": "Lisbon"],
                ["emailAgain": "a@example.com"],
            ] {
                snapshot = try service.advance(snapshot, answers)
                #expect(try stream.next().id == snapshot.rev)
            }
            #expect(snapshot["status"] == "completed")
            #expect(stream.isEnded(), "the stream of a completed session stays open")
            let after = try service.agentEvent(session, ["say": ["text": "bye"]], token: agent)
            #expect(after.status == 409 && after.problemType == "urn:parley:problem:session-completed", "\(after)")

            // Resuming a completed session's stream: nothing newer than Last-Event-ID, so it just ends.
            let resumed = try SessionEventStream(port: service.client.port, session: session, lastEventId: snapshot.rev)
            #expect(resumed.head.status == 200 && resumed.isEnded())
            let missing = try SessionEventStream(port: service.client.port, session: "no-such-session")
            #expect(missing.head.status == 404)
        }
    }

    @Test func erasingAFollowedSessionEndsItsStreamsWithoutShowingTheTombstone() async throws {
        try await ServiceHarness.run(inProcess: 1, .live) { service in
            let agent = try await TestEnvironment.token(.agent, pool: service.pool)
            let flow = try SessionFixture.released(service, prefix: "erase")
            let session = try service.startSession(flow).json.sessionId
            let stream = try SessionEventStream(port: service.client.port, session: session)
            #expect(try stream.next().id == 1)
            #expect(try service.agentEvent(session, ["say": ["text": "personal"]], token: agent).status == 200)
            #expect(try stream.next().id == 2)
            let erased = try service.client.send(
                "DELETE", "/v1/sessions/\(session)", headers: [ServiceHarness.bearer(service.admin)])
            #expect(erased.status == 204, "\(erased)")
            #expect(stream.isEnded(), "the stream of an erased session showed more or stayed open")
            let again = try SessionEventStream(port: service.client.port, session: session)
            #expect(again.head.status == 410)
        }
    }

    /// Acceptance: Python's sseclient-py follows a session; every change arrives in rev order, and
    /// Last-Event-ID resumes with nothing missed and nothing repeated (Tests/Receivers/sse_follower.py).
    @Test func sseclientFollowsEveryChangeAndResumesFromLastEventID() async throws {
        try await ServiceHarness.run(inProcess: 1, .live) { service in
            let agent = try await TestEnvironment.token(.agent, pool: service.pool)
            let flow = try SessionFixture.released(service, prefix: "sse")
            let session = try service.startSession(flow).json.sessionId
            let port = service.client.port
            let (status, output) = try await LiveSessionScaleTests.onThread {
                try Self.python(
                    "Tests/Receivers/sse_follower.py", "--base", "http://127.0.0.1:\(port)",
                    "--session=\(session)", "--agent-token", agent, "--events", "20")
            }
            print(output)
            #expect(status == 0, "\(output)")
            #expect(output.contains("resumed without loss"))
        }
    }

    /// Runs a script with the test Python (deploy/test installs sseclient-py into it).
    static func python(_ arguments: String...) throws -> (Int32, String) {
        let process = ChildProcess()
        // Under `timeout`: the script's own waits have deadlines, and so has the wait for it.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments =
            [
                "--kill-after=5", "120", WebhookReceiver.python,
                TestEnvironment.packageRoot.appendingPathComponent(arguments[0]).path,
            ]
            + arguments.dropFirst()
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.runAlone()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}

extension ServiceHarness {
    /// `POST /v1/sessions/{id}/events` with `token`.
    func agentEvent(_ session: String, _ body: JSONValue, token: String, on client: RawHTTPClient? = nil) throws
        -> RawResponse
    {
        try (client ?? self.client).send(
            "POST", "/v1/sessions/\(session)/events",
            headers: [("Content-Type", "application/json"), Self.bearer(token)], body: CanonicalJSON.encode(body))
    }
}
