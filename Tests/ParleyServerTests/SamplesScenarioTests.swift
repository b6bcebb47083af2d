import ParleyCore
import Testing

/// `GET /v1/flows/{id}/versions/{n}/samples`: the generator over a stored
/// version, and the server's own verdict agrees with every label.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SamplesScenarioTests {
    @Test func everySampleGetsTheVerdictItsLabelPromises() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try SessionFixture.released(service, prefix: "samples")
            let response = try service.client.send(
                "GET", "/v1/flows/\(id)/versions/1/samples?seed=9&core=1.1.0",
                headers: [ServiceHarness.bearer(service.author)])
            #expect(response.status == 200, "\(response)")
            let document = response.json
            #expect(document["schema"] == "parley.samples/1")
            #expect(document["version"] == 1)
            #expect(document["seed"] == 9)
            let again = try service.client.send(
                "GET", "/v1/flows/\(id)/versions/1/samples?seed=9&core=1.1.0",
                headers: [ServiceHarness.bearer(service.author)])
            #expect(again.body == response.body, "the same seed gives the same bytes")
            var checked = 0
            for step in document["steps"]?.arrayValue ?? [] {
                for sample in step["samples"]?.arrayValue ?? [] {
                    let stepId = try #require(step["step"]?.stringValue)
                    // `emailAgain` names a field of the first step: the samples say which context they assume.
                    let context = step["context"] ?? [:]
                    let verdict = try service.validate(
                        id, version: 1, step: stepId, answers: sample["answers"] ?? [:], context: context)
                    #expect(verdict.status == 200)
                    let expectedValid = sample["expect"] == "pass"
                    #expect(verdict.json["valid"] == .bool(expectedValid), "\(stepId): \(sample) → \(verdict.json)")
                    if !expectedValid {
                        #expect(verdict.json["errors"]?.arrayValue?.first?["rule"] == sample["rule"])
                    }
                    checked += 1
                }
            }
            #expect(checked > 10)
        }
    }

    @Test func badParametersAreProblems() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try SessionFixture.released(service, prefix: "samplesbad")
            let auth = [ServiceHarness.bearer(service.author)]
            let seed = try service.client.send("GET", "/v1/flows/\(id)/versions/1/samples?seed=-1", headers: auth)
            #expect(seed.status == 400)
            #expect(seed.json["detail"]?.stringValue?.contains("seed") == true)
            let core = try service.client.send("GET", "/v1/flows/\(id)/versions/1/samples?core=x", headers: auth)
            #expect(core.status == 400)
            let step = try service.client.send("GET", "/v1/flows/\(id)/versions/1/samples?step=nope", headers: auth)
            #expect(step.status == 404)
            let version = try service.client.send("GET", "/v1/flows/\(id)/versions/7/samples", headers: auth)
            #expect(version.status == 404)
            let anonymous = try service.client.send("GET", "/v1/flows/\(id)/versions/1/samples")
            #expect(anonymous.status == 401)
        }
    }
}
