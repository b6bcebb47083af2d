import Flows
import Foundation
import ParleyClient
import ParleyCore
import ParleyTestSupport
import Synchronization
import Testing

/// `ParleySession.followLive()` against a live `parley serve` (issue 14 with DESIGN.md "Live
/// sessions"): another device's answers and an agent's message arrive in rev order, the follow
/// survives a server restart by reconnecting with `Last-Event-ID`, and it ends at completion.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ClientKitLiveScenarioTests {
    /// What the follower saw, filled by its task and read by the test.
    final class Followed: Sendable {
        private let state = Mutex<(snapshots: [ParleySnapshot], ended: Bool, error: String?)>(([], false, nil))

        var snapshots: [ParleySnapshot] { state.withLock { $0.snapshots } }
        var ended: Bool { state.withLock { $0.ended } }
        var error: String? { state.withLock { $0.error } }

        func follow(_ session: ParleySession) -> Task<Void, Never> {
            Task {
                do {
                    for try await snapshot in session.followLive() { state.withLock { $0.snapshots.append(snapshot) } }
                    state.withLock { $0.ended = true }
                } catch {
                    state.withLock {
                        $0.ended = true
                        $0.error = "\(error)"
                    }
                }
            }
        }

        /// Waits until a snapshot with `rev` arrived (60 s is only a hang guard on a loaded machine).
        func snapshot(rev: Int) async throws -> ParleySnapshot {
            for _ in 0..<600 {
                if let found = snapshots.first(where: { $0.rev == rev }) { return found }
                try await Task.sleep(for: .milliseconds(100))
            }
            Issue.record("rev \(rev) never arrived; saw \(snapshots.map(\.rev)), error \(error ?? "none")")
            throw CancellationError()
        }
    }

    @Test func followsAnotherDeviceAndAnAgentAcrossAServerRestart() async throws {
        try await ServiceHarness.run { service in
            let flow = try #require(ShippedFlows.all.first { $0.id == "passport-intake" })
            _ = try ClientKitScenarioTests.publish(flow, service)
            let answers = try ClientKitScenarioTests.passing(flow)
            let agent = try await TestEnvironment.token(.agent, pool: service.pool)
            let port = service.servers[0].port
            let patient = RetryPolicy(attempts: 80, initialDelayMilliseconds: 50, maximumDelayMilliseconds: 500)
            let shown = try await ParleySession.start(
                flow: flow.id, endpoint: ClientKitScenarioTests.endpoint(port: port, core: "2.0.0", retry: patient))
            let device = try await ParleySession.resume(
                id: shown.id, endpoint: ClientKitScenarioTests.endpoint(port: port, core: "2.0.0", retry: patient))
            let followed = Followed()
            let follower = followed.follow(shown)
            defer { follower.cancel() }

            // Another device answers the first step: the shown session follows to rev 2.
            var current = await device.snapshot
            guard case .accepted(let second) = try await device.submit(try #require(answers[current.step])) else {
                Issue.record("the first step was refused")
                return
            }
            #expect(try await followed.snapshot(rev: 2).step == second.step)
            #expect(await shown.snapshot.rev == 2, "followLive feeds accept(_:)")

            // An agent speaks in the session: rev 3 carries the message.
            let said = try service.agentEvent(shown.id, ["say": ["text": "We have your passport photo."]], token: agent)
            #expect(said.status == 200, "\(said)")
            let spoken = try await followed.snapshot(rev: 3)
            #expect(spoken.messages.map(\.text) == ["We have your passport photo."])

            // The server restarts on the same port; the follower reconnects with Last-Event-ID: 3.
            service.servers[0].stop()
            let restarted = try await Task.detached { try ServerProcess(arguments: ["--port", String(port)]) }.value
            defer { restarted.stop() }
            current = try await device.refresh()
            while current.status == .active {
                guard case .accepted(let next) = try await device.submit(try #require(answers[current.step])) else {
                    Issue.record("step \(current.step) refused")
                    return
                }
                current = next
            }
            let completed = try await followed.snapshot(rev: current.rev)
            #expect(completed.status == .completed)
            for _ in 0..<600 where !followed.ended { try await Task.sleep(for: .milliseconds(100)) }
            #expect(followed.ended && followed.error == nil, "the follow ends at completion: \(followed.error ?? "")")
            // Each snapshot is the full state, so one missed while the server was down is no loss:
            // the revs only grow, from the first change to the last, never repeating.
            let revs = followed.snapshots.map(\.rev)
            #expect(revs.first == 2 && revs.last == current.rev && zip(revs, revs.dropFirst()).allSatisfy(<), "\(revs)")
        }
    }
}
