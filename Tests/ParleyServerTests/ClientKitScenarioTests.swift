import Flows
import Foundation
import ParleyClient
import ParleyCore
import Testing

/// A test app written only against ParleyClient's public API (plus ParleyCore values), on a
/// live `parley serve`: the harness only starts servers and publishes flows (issue 14).
@Suite(.serialized, .timeLimit(.minutes(10))) struct ClientKitScenarioTests {
    /// Posts and releases a shipped flow; returns its version.
    static func publish(_ flow: Flow, _ service: ServiceHarness) throws -> Int {
        let posted = try service.postFlow(CanonicalJSON.string(flow.json))
        #expect(posted.status == 201 || posted.status == 200, "\(posted)")
        let version = try #require(posted.json["version"]?.numberValue?.intValue)
        #expect(try service.release(flow.id, version: version).status == 201)
        return version
    }

    static func endpoint(port: UInt16, core: String, retry: RetryPolicy = RetryPolicy()) -> ParleyEndpoint {
        ParleyEndpoint(
            transport: URLSessionTransport(baseURL: URL(string: "http://127.0.0.1:\(port)")!), core: core,
            retry: retry)
    }

    /// Passing answers for every step, from the same sample generator designers use.
    static func passing(_ flow: Flow) throws -> [String: Answers] {
        let samples = try #require(SampleGenerator(seed: 1).samples(for: flow))
        var byStep: [String: Answers] = [:]
        for step in samples.steps { byStep[step.step] = step.answers }
        return byStep
    }

    @Test func completesPassportIntakeAcrossAServerRestart() async throws {
        try await ServiceHarness.run { service in
            let flow = try #require(ShippedFlows.all.first { $0.id == "passport-intake" })
            _ = try Self.publish(flow, service)
            let answers = try Self.passing(flow)
            let port = service.servers[0].port
            let retry = RetryPolicy(attempts: 80, initialDelayMilliseconds: 50, maximumDelayMilliseconds: 500)
            let session = try await ParleySession.start(
                flow: flow.id, endpoint: Self.endpoint(port: port, core: "2.0.0", retry: retry))
            var snapshot = await session.snapshot
            #expect(snapshot.step == flow.start)
            #expect(snapshot.rev == 1)
            // A local refusal sends nothing: the rev stays.
            if case .invalidLocally(let errors) = try await session.submit(Answers()) {
                #expect(!errors.isEmpty)
            } else {
                Issue.record("empty answers must fail locally")
            }
            #expect(await session.snapshot.rev == 1)
            var restarted: ServerProcess?
            defer { restarted?.stop() }
            var steps = 0
            while snapshot.status == .active, steps < 10 {
                let stepAnswers = try #require(answers[snapshot.step], "no samples for \(snapshot.step)")
                if steps == 1 {
                    // Restart the server on the same port while the answer is on its way: the client retries.
                    service.servers[0].stop()
                    let starter = Task.detached { try ServerProcess(arguments: ["--port", String(port)]) }
                    let outcome = try await session.submit(stepAnswers)
                    restarted = try await starter.value
                    guard case .accepted(let next) = outcome else {
                        Issue.record("after the restart: \(outcome)")
                        return
                    }
                    snapshot = next
                } else {
                    guard case .accepted(let next) = try await session.submit(stepAnswers) else {
                        Issue.record("step \(snapshot.step) refused")
                        return
                    }
                    snapshot = next
                }
                steps += 1
            }
            #expect(snapshot.status == .completed)
            #expect(snapshot.rev == steps + 1)
            // Stale snapshots are dropped; going back is refused once completed, and the shown snapshot stays.
            let resumed = try await ParleySession.resume(
                id: session.id, endpoint: Self.endpoint(port: port, core: "2.0.0"))
            #expect(await resumed.snapshot == snapshot)
        }
    }

    /// Core 1.0 cannot run `equalsField`: the client accepts the mismatch locally, the server refuses it.
    @Test func showsTheServerOnlyRulesError() async throws {
        try await ServiceHarness.run(inProcess: 1, .live) { service in
            let flow = try #require(ShippedFlows.all.first { $0.id == "passport-intake" })
            _ = try Self.publish(flow, service)
            let answers = try Self.passing(flow)
            let session = try await ParleySession.start(
                flow: flow.id, endpoint: Self.endpoint(port: service.port(), core: "1.0.0"))
            var snapshot = await session.snapshot
            while snapshot.step != "confirm", snapshot.status == .active {
                guard case .accepted(let next) = try await session.submit(try #require(answers[snapshot.step])) else {
                    Issue.record("step \(snapshot.step) refused")
                    return
                }
                snapshot = next
            }
            #expect(snapshot.deferred.contains(DeferredRule(field: "emailConfirmation", rule: "equalsField")))
            // The confirmation is its own step after `contact`: a cross-step equalsField.
            var mismatch = try #require(answers["confirm"])
            mismatch["emailConfirmation"] = "other-" + (answers["contact"]?["email"] ?? "")
            #expect(await session.check(mismatch).valid, "the 1.0 core cannot check equalsField")
            let outcome = try await session.submit(mismatch)
            guard case .invalidOnServer(let errors) = outcome else {
                Issue.record("expected the server's refusal, got \(outcome)")
                return
            }
            #expect(errors.map(\.rule) == ["equalsField"])
            #expect(errors.first?.message == "The e-mail addresses do not match.")
        }
    }

    /// The verdict a `ParleySession` gives on the device (`check`, the app's own call) equals the
    /// server's on every generated sample of every step its walk reaches, every shipped flow, cores
    /// 1.0 to 2.1 (except rules the core defers, which only the server runs).
    @Test func theSessionsLocalVerdictIsTheServersOnEverySampleOfItsWalk() async throws {
        try await ServiceHarness.run(inProcess: 1, .live) { service in
            var compared = 0
            var walked: Set<String> = []
            for flow in ShippedFlows.all {
                let version = try Self.publish(flow, service)
                for core in ["1.0.0", "1.1.0", "1.2.0", "2.0.0", "2.1.0"] {
                    let capabilities = CapabilitySet(core: try CoreVersion(parsing: core))
                    let samples = try #require(SampleGenerator(seed: 4).samples(for: flow, capabilities: capabilities))
                    let session = try await ParleySession.start(
                        flow: flow.id, endpoint: Self.endpoint(port: service.port(), core: core))
                    var snapshot = await session.snapshot
                    while snapshot.status == .active, snapshot.served == "step" {
                        let step = try #require(samples.steps.first { $0.step == snapshot.step })
                        for sample in step.samples where !sample.isDeferred {
                            let local = await session.check(sample.answers)
                            let server = try service.validate(
                                flow.id, version: version, step: step.step, answers: sample.answers.json,
                                context: step.context.json)
                            #expect(
                                server.json["valid"] == .bool(local.valid),
                                "\(flow.id)/\(step.step) core \(core): \(CanonicalJSON.string(sample.json))")
                            #expect(local.valid == (sample.expectation == .pass))
                            compared += 1
                        }
                        walked.insert("\(flow.id)/\(step.step)")
                        guard case .accepted(let next) = try await session.submit(step.answers) else {
                            Issue.record("\(flow.id)/\(step.step) core \(core): the passing answers were refused")
                            break
                        }
                        snapshot = next
                    }
                }
            }
            #expect(compared > 100)
            #expect(walked.count >= ShippedFlows.all.count * 2, "walked \(walked.sorted())")
        }
    }

    /// Client verdict == server verdict on every generated sample, every shipped flow, cores 1.0 to 2.1
    /// (except rules the core defers, which only the server runs).
    @Test func clientAndServerAgreeOnEverySample() async throws {
        try await ServiceHarness.run(inProcess: 1, .live) { service in
            var compared = 0
            for flow in ShippedFlows.all {
                let version = try Self.publish(flow, service)
                for core in ["1.0.0", "1.1.0", "1.2.0", "2.0.0", "2.1.0"] {
                    let capabilities = CapabilitySet(core: try CoreVersion(parsing: core))
                    let samples = try #require(SampleGenerator(seed: 4).samples(for: flow, capabilities: capabilities))
                    for step in samples.steps {
                        let gated = try service.screen(flow.id, step: step.step, core: core)
                        guard gated.status == 200, gated.json["served"] == "step" else { continue }
                        let screen = try Screen(json: gated.json["screen"] ?? .null, at: .root, requireSchema: false)
                        for sample in step.samples where !sample.isDeferred {
                            let client = RuleInterpreter(mode: .client).validate(
                                screen: screen, answers: sample.answers, context: step.context)
                            let server = try service.validate(
                                flow.id, version: version, step: step.step, answers: sample.answers.json,
                                context: step.context.json)
                            #expect(server.status == 200)
                            #expect(
                                server.json["valid"] == .bool(client.valid),
                                "\(flow.id)/\(step.step) core \(core): \(CanonicalJSON.string(sample.json))")
                            #expect(client.valid == (sample.expectation == .pass))
                            compared += 1
                        }
                    }
                }
            }
            #expect(compared > 100)
        }
    }
}
