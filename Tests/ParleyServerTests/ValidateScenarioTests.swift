import ParleyCore
import ParleyServer
import Testing

/// `POST /v1/flows/{flow}/validate`: the stateless dry run answers exactly what the interpreter
/// says for one step, with the full rule set of the exact version, and stores nothing.
@Suite(.timeLimit(.minutes(10))) struct ValidateScenarioTests {
    @Test func validateIsTheInterpretersOutcomeAndStoresNothing() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = FlowFixture.uniqueId("val")
            let text = FlowFixture.branching(id: id)
            try #require(try service.postFlow(text).status == 201)
            try #require(try service.release(id, version: 1).status == 201)
            let flow = try FlowFixture.flow(text)
            let details = try #require(flow.step("details")).screen
            let server = RuleInterpreter(mode: .server)

            // Bad answers, as a client that skipped its own checks would send; the deferred
            // equalsField (1.2) counts as for any core.
            let bad: Answers = ["email": "no-at-sign.example", "emailAgain": "someone@example.com", "purpose": "  "]
            let expected = server.validate(screen: details, answers: bad)
            #expect(expected.errors.map(\.rule) == ["email", "equalsField", "required"], "fixture sanity")
            let rejected = try service.validate(id, version: 1, step: "details", answers: bad.json)
            #expect(rejected.status == 200, "a dry run answers its verdict: \(rejected)")
            #expect(rejected.json == expected.json.addingCleared([]), "\(rejected)")
            #expect(rejected.json["valid"] == false && rejected.json["next"] == nil)

            let work: Answers = ["email": "a@example.com", "emailAgain": "a@example.com", "purpose": "work"]
            let valid = try service.validate(id, version: 1, step: "details", answers: work.json)
            #expect(valid.json["valid"] == true && valid.json["next"] == "employer", "\(valid)")
            var holiday = work
            holiday["purpose"] = "holiday"
            #expect(try service.validate(id, version: 1, step: "details", answers: holiday.json).json["next"] == "done")

            // Context: the answers of earlier steps, for cross-step rules and transitions.
            let employer = try service.validate(
                id, version: 1, step: "employer", answers: ["employer": "Acme"], context: work.json)
            #expect(employer.json["valid"] == true && employer.json["next"] == "done", "\(employer)")

            var extra = work
            extra["favouriteColour"] = "blue"
            let unexpected = try service.validate(id, version: 1, step: "details", answers: extra.json)
            #expect(
                unexpected.json == server.validate(screen: details, answers: extra).json.addingCleared([]),
                "\(unexpected)")
            var huge = work
            huge["email"] = String(repeating: "a", count: 10_001)
            let tooLong = try service.validate(id, version: 1, step: "details", answers: huge.json)
            #expect(tooLong.status == 400 && tooLong.isProblem, "an answer over 10,000 characters: \(tooLong)")

            // Versions never released, steps that do not exist.
            try #require(
                try service.postFlow(text.replacingOccurrences(of: "\"Contact\"", with: "\"Contact v2\"")).status
                    == 201)
            let unreleased = try service.validate(id, version: 2, step: "details", answers: work.json)
            #expect(unreleased.status == 404 && unreleased.isProblem, "\(unreleased)")
            let neverExisted = try service.validate(id, version: 9, step: "details", answers: work.json)
            #expect(neverExisted.status == 404 && neverExisted.isProblem, "\(neverExisted)")
            let noStep = try service.validate(id, version: 1, step: "nowhere", answers: work.json)
            #expect(noStep.status == 404 && noStep.isProblem, "\(noStep)")

            // Nothing was stored, nothing counted.
            let sessions = try await service.pool.query(
                "SELECT count(*)::bigint FROM session_log l JOIN sessions s ON s.key = l.session_key WHERE s.flow_id = \(id)"
            )
            #expect(try sessions.first?.decode(Int.self, at: 0) == 0)
            let metrics = try service.client.send("GET", "/metrics").text
            #expect(!metrics.contains("parley_submit_rejections_total{rule=\"email\",core=\"1.0\"}"), "\(metrics)")
        }
    }
}
