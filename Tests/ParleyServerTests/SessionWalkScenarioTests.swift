import ParleyCore
import ParleyPostgres
import Testing

/// Issue 11: the server owns the walk through a flow. Skipping ahead is impossible, rules may name
/// fields of earlier steps, going back drops an abandoned branch, and a session stays on its version.
@Suite(.timeLimit(.minutes(10))) struct SessionWalkScenarioTests {
    @Test func skippingAheadIsImpossibleAndOnlyTheWholePathCompletes() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try SessionFixture.released(service, prefix: "walk")
            let started = try service.startSession(id)
            try #require(started.status == 201, "\(started)")
            var snapshot = started.json
            #expect(snapshot.rev == 1 && snapshot.step == "email" && snapshot["status"] == "active")
            #expect(snapshot["screen"]?["step"] == "email" && snapshot["path"] == [])
            #expect(started.header("Location") == "/v1/sessions/\(snapshot.sessionId)")
            #expect(started.header("ETag") == "\"1\"")

            // Every step but the current one is refused, whatever rev is sent.
            for step in ["purpose", "employer", "holiday", "confirm", "done", "nowhere"] {
                let skipped = try service.answer(snapshot, ["emailAgain": "a@example.com"], step: step)
                #expect(
                    skipped.status == 409 && skipped.problemType == "urn:parley:problem:step-mismatch", "\(skipped)")
                #expect(skipped.json["snapshot"]?.rev == 1 && skipped.json["snapshot"]?.step == "email")
            }
            let stale = try service.answer(snapshot, ["email": "a@example.com"], rev: 7)
            #expect(stale.status == 409 && stale.problemType == "urn:parley:problem:stale-rev", "\(stale)")

            snapshot = try service.advance(snapshot, ["email": "a@example.com"])
            #expect(snapshot.rev == 2 && snapshot.step == "purpose" && snapshot["path"] == ["email"])
            snapshot = try service.advance(snapshot, ["purpose": "work"])
            #expect(snapshot.step == "employer")
            snapshot = try service.advance(snapshot, ["employer": "Acme"])
            #expect(snapshot.step == "confirm")
            snapshot = try service.advance(snapshot, ["emailAgain": "a@example.com"])
            #expect(snapshot["status"] == "completed" && snapshot.step == "done" && snapshot.rev == 5)
            #expect(snapshot["path"] == ["email", "purpose", "employer", "confirm"])

            let after = try service.answer(snapshot, ["emailAgain": "a@example.com"], step: "done")
            #expect(after.status == 409 && after.problemType == "urn:parley:problem:session-completed", "\(after)")
            let completion = try await Self.completion(service.pool, flow: id)
            #expect(
                completion?.answers == [
                    "email": "a@example.com", "purpose": "work", "employer": "Acme",
                    "emailAgain": "a@example.com",
                ])
            #expect(completion?.path == ["email", "purpose", "employer", "confirm", "done"])
        }
    }

    @Test func aConfirmationOnALaterStepMustEqualTheEarlierEmail() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try SessionFixture.released(service, prefix: "confirm")
            let flow = try FlowFixture.flow(SessionFixture.signup(id: id))
            // A 1.0 core does not run equalsField (1.2): the server still does, across steps.
            for core in ["1.0.0", "1.2.0"] {
                var snapshot = try #require(try service.startSession(id, core: core).json as JSONValue?)
                snapshot = try service.advance(snapshot, ["email": "a@example.com"])
                snapshot = try service.advance(snapshot, ["purpose": "holiday"])
                snapshot = try service.advance(snapshot, ["destination": "Lisbon"])
                #expect(snapshot.step == "confirm")

                let wrong: Answers = ["emailAgain": "b@example.com"]
                let earlier: Answers = ["email": "a@example.com", "purpose": "holiday", "destination": "Lisbon"]
                let expected = RuleInterpreter(mode: .server).validate(
                    screen: try #require(flow.step("confirm")).screen, answers: wrong, context: earlier)
                #expect(expected.errors.map(\.rule) == ["equalsField"], "the interpreter's verdict")
                let rejected = try service.answer(snapshot, wrong)
                #expect(rejected.status == 422 && rejected.problemType == "urn:parley:problem:invalid-answers")
                #expect(rejected.json["errors"] == .array(expected.errors.map(\.json)), "\(rejected)")
                #expect(rejected.json["snapshot"]?.rev == snapshot.rev, "the snapshot is unchanged")

                // Fields that are not on the step are named.
                let extra = try service.answer(snapshot, ["emailAgain": "a@example.com", "employer": "Acme"])
                #expect(extra.status == 422, "\(extra)")
                #expect(
                    extra.json["errors"] == [
                        [
                            "field": "employer", "rule": "unexpectedField",
                            "message": .string(
                                RuleInterpreter(mode: .server).validate(
                                    screen: try #require(flow.step("confirm")).screen,
                                    answers: ["emailAgain": "a@example.com", "employer": "Acme"], context: earlier
                                ).errors.first?.message ?? ""),
                        ]
                    ])

                let done = try service.answer(snapshot, ["emailAgain": "a@example.com"])
                #expect(done.status == 200 && done.json["status"] == "completed", "\(done)")
            }
            let metrics = try service.client.send("GET", "/metrics").text
            #expect(metrics.contains(#"parley_submit_rejections_total{rule="equalsField",core="1.0"}"#), "\(metrics)")
            #expect(metrics.contains(#"parley_session_completions_total{flow="\#(id)",version="1"} 2"#))
            #expect(metrics.contains(#"parley_sessions_started_total{flow="\#(id)",version="1"} 2"#))
            #expect(
                metrics.contains(
                    #"parley_session_steps_total{flow="\#(id)",version="1",step="confirm",outcome="invalid"} 4"#))
        }
    }

    @Test func goingBackAndTakingAnotherBranchDropsTheAbandonedAnswers() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try SessionFixture.released(service, prefix: "back")
            var snapshot = try service.startSession(id).json
            let atStart = try service.back(snapshot)
            #expect(atStart.status == 409 && atStart.problemType == "urn:parley:problem:at-start", "\(atStart)")
            snapshot = try service.advance(snapshot, ["email": "a@example.com"])
            snapshot = try service.advance(snapshot, ["purpose": "work"])
            #expect(snapshot.step == "employer")
            // Back from step 3 to step 1: each step's answers come back as values.
            let toPurpose = try service.back(snapshot)
            try #require(toPurpose.status == 200, "\(toPurpose)")
            #expect(toPurpose.json.step == "purpose" && toPurpose.json["values"] == ["purpose": "work"])
            let toEmail = try service.back(toPurpose.json)
            #expect(toEmail.json.step == "email" && toEmail.json["values"] == ["email": "a@example.com"])
            #expect(toEmail.json["path"] == [] && toEmail.json.rev == 5)
            // Same answer again: the step ahead comes back prefilled.
            snapshot = try service.advance(toEmail.json, ["email": "a@example.com"])
            #expect(snapshot.step == "purpose" && snapshot["values"] == ["purpose": "work"])
            // Another branch: the employer answer is dropped.
            snapshot = try service.advance(snapshot, ["purpose": "holiday"])
            #expect(snapshot.step == "holiday" && snapshot["values"] == [:])
            snapshot = try service.advance(snapshot, ["destination": "Porto"])
            snapshot = try service.advance(snapshot, ["emailAgain": "a@example.com"])
            #expect(snapshot["status"] == "completed")
            let completion = try await Self.completion(service.pool, flow: id)
            #expect(
                completion?.answers == [
                    "email": "a@example.com", "purpose": "holiday", "destination": "Porto",
                    "emailAgain": "a@example.com",
                ], "exactly the fields of the final path")
            #expect(completion?.path == ["email", "purpose", "holiday", "confirm", "done"])
        }
    }

    @Test func aSessionFinishesOnTheVersionItStartedOn() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try SessionFixture.released(service, prefix: "pin")
            var old = try service.startSession(id).json
            old = try service.advance(old, ["email": "a@example.com"])
            // v2 renames the purpose label and no longer accepts "holiday" on that step.
            let v2 = SessionFixture.signup(id: id, title: "Sign-up v2")
                .replacingOccurrences(of: #""label": "Purpose""#, with: #""label": "Why?""#)
                .replacingOccurrences(of: #""values": ["work", "holiday"]"#, with: #""values": ["work"]"#)
            try #require(try service.postFlow(v2).status == 201)
            try #require(try service.release(id, version: 2).status == 201)

            let reread = try service.client.send("GET", "/v1/sessions/\(old.sessionId)")
            #expect(reread.json["version"] == 1)
            #expect(reread.json["screen"]?["screen"]?.node("purpose")?["properties"]?["label"] == "Purpose")
            old = try service.advance(old, ["purpose": "holiday"])
            #expect(old.step == "holiday", "v1's rules still apply to the v1 session")

            let fresh = try service.startSession(id).json
            #expect(fresh["version"] == 2)
            let onV2 = try service.advance(fresh, ["email": "b@example.com"])
            #expect(onV2["screen"]?["screen"]?.node("purpose")?["properties"]?["label"] == "Why?")
            let refused = try service.answer(onV2, ["purpose": "holiday"])
            #expect(refused.status == 422, "v2's rules apply to the v2 session: \(refused)")
        }
    }

    /// The completion row of the flow's only completed session.
    static func completion(_ pool: PostgresPool, flow: String) async throws -> (path: [String], answers: Answers)? {
        let rows = try await pool.query("SELECT path, answers FROM completions WHERE flow_id = \(flow)")
        guard let row = rows.first else { return nil }
        let path: PostgresJSONB = try row.decode(at: 0)
        let answers: PostgresJSONB = try row.decode(at: 1)
        let steps = try JSONParser.parse(path.bytes).arrayValue?.compactMap(\.stringValue) ?? []
        return (steps, try Answers(try JSONParser.parse(answers.bytes)))
    }
}
