import ParleyCore
import ParleyServer
import Testing

/// Issue 8 acceptance, scenario 3: the server re-validates every submit with the
/// full rule set of the exact version, whatever the client's core checked.
@Suite struct SubmitScenarioTests {
    @Test func submitsAreRevalidatedWithTheFullRuleSet() async throws {
        try await ServiceHarness.run { service in
            let id = FlowFixture.uniqueId("s3")
            let text = FlowFixture.branching(id: id)
            try #require(try service.postFlow(text).status == 201)
            try #require(try service.release(id, version: 1).status == 201)
            let flow = try FlowFixture.flow(text)
            let details = try #require(flow.step("details")).screen

            // A 1.0 core cannot run equalsField (1.2): it is removed and listed as deferred.
            let served = try service.screen(id, core: "1.0.0")
            try #require(served.status == 200, "\(served)")
            let deferred = served.json["deferred"]?.arrayValue ?? []
            #expect(deferred.contains { $0["field"] == "emailAgain" && $0["rule"] == "equalsField" }, "\(served)")
            let servedRules = served.json["screen"]?.node("emailAgain")?["properties"]?["validation"]?.arrayValue
            #expect(servedRules?.contains { $0["rule"] == "equalsField" } != true, "the rule is not served to 1.0")

            // Bad answers, as a client that skipped its own checks would send.
            let bad: Answers = ["email": "not an email", "emailAgain": "someone@example.com", "purpose": "  "]
            let expected = RuleInterpreter(mode: .server).validate(screen: details, answers: bad)
            #expect(expected.errors.map(\.rule) == ["email", "equalsField", "required"], "fixture sanity")
            let rejected = try service.submit(id, version: 1, step: "details", answers: bad.json, core: "1.0.0")
            #expect(rejected.status == 422 && rejected.isProblem, "\(rejected)")
            #expect(rejected.problemType == "urn:parley:problem:invalid-answers")
            #expect(rejected.json["errors"] == .array(expected.errors.map(\.json)), "\(rejected)")

            // Only the deferred rule fails: still refused, exactly as the interpreter says.
            let mismatch: Answers = ["email": "a@example.com", "emailAgain": "b@example.com", "purpose": "work"]
            let onlyDeferred = try service.submit(
                id, version: 1, step: "details", answers: mismatch.json, core: "1.0.0")
            #expect(onlyDeferred.status == 422, "\(onlyDeferred)")
            #expect(
                onlyDeferred.json["errors"]
                    == .array(
                        RuleInterpreter(mode: .server).validate(screen: details, answers: mismatch).errors.map(\.json)))
            #expect(onlyDeferred.json["errors"]?.arrayValue?.map { $0["rule"] } == ["equalsField"])

            // Good answers branch on purpose.
            let work: Answers = ["email": "a@example.com", "emailAgain": "a@example.com", "purpose": "work"]
            let toEmployer = try service.submit(id, version: 1, step: "details", answers: work.json, core: "1.0.0")
            try #require(toEmployer.status == 200, "\(toEmployer)")
            #expect(toEmployer.json["next"] == "employer")
            #expect(toEmployer.json["screen"]?["step"] == "employer")
            #expect(toEmployer.json["screen"]?["screen"]?.node("employer")?["type"] == "textField")
            #expect(toEmployer.header("Parley-Flow-Version") == "1")
            var huge = work
            huge["email"] = String(repeating: "a", count: 10_001)
            let tooLong = try service.submit(id, version: 1, step: "details", answers: huge.json, core: "1.2.0")
            #expect(tooLong.status == 400 && tooLong.isProblem, "an answer over 10,000 characters: \(tooLong)")
            var holiday = work
            holiday["purpose"] = "holiday"
            let toDone = try service.submit(id, version: 1, step: "details", answers: holiday.json, core: "1.2.0")
            try #require(toDone.status == 200, "\(toDone)")
            #expect(toDone.json["next"] == "done")
            #expect(toDone.json["screen"]?["screen"]?.node("thanks") != nil)
            let finished = try service.submit(
                id, version: 1, step: "employer", answers: ["employer": "Acme"], core: "1.2.0")
            #expect(finished.status == 200 && finished.json["next"] == "done", "\(finished)")
            let last = try service.submit(id, version: 1, step: "done", answers: [:], core: "1.2.0")
            #expect(last.status == 200 && last.json["done"] == true, "\(last)")

            // Versions never released, steps and fields that do not exist.
            try #require(
                try service.postFlow(
                    FlowFixture.branching(id: id).replacingOccurrences(
                        of: "\"Contact\"", with: "\"Contact v2\"")
                ).status == 201)
            let unreleased = try service.submit(id, version: 2, step: "details", answers: work.json, core: "1.2.0")
            #expect(unreleased.status == 409 && unreleased.isProblem, "\(unreleased)")
            let neverExisted = try service.submit(id, version: 9, step: "details", answers: work.json, core: "1.2.0")
            #expect((400..<500).contains(neverExisted.status) && neverExisted.isProblem, "\(neverExisted)")
            let noStep = try service.submit(id, version: 1, step: "nowhere", answers: work.json, core: "1.2.0")
            #expect(noStep.status == 404 && noStep.isProblem, "\(noStep)")
            var extra = work
            extra["favouriteColour"] = "blue"
            let unexpected = try service.submit(id, version: 1, step: "details", answers: extra.json, core: "1.2.0")
            #expect(unexpected.status == 422, "\(unexpected)")
            #expect(
                unexpected.json["errors"]?.arrayValue?.contains {
                    $0["field"] == "favouriteColour" && $0["rule"] == "unexpectedField"
                } == true, "\(unexpected)")
            let badCore = try service.submit(id, version: 1, step: "details", answers: work.json, core: "one")
            #expect(badCore.status == 400 && badCore.isProblem, "\(badCore)")

            // Every submit that reached validation was recorded with its outcome.
            let recorded = try await SubmissionStore(pool: service.pool).count(flowId: id, version: 1)
            #expect(recorded == 7, "2 rejected, 4 accepted, 1 unexpected field")
            #expect(try await SubmissionStore(pool: service.pool).count(flowId: id, version: 2) == 0)

            // Operators see which rule a core's users keep failing on the server.
            let metrics = try service.client.send("GET", "/metrics")
            #expect(metrics.status == 200)
            #expect(
                metrics.text.contains(#"parley_submit_rejections_total{rule="equalsField",core="1.0"}"#), "\(metrics)")
            #expect(metrics.text.contains(#"parley_submit_rejections_total{rule="unexpectedField",core="1.2"}"#))
        }
    }
}
