import Foundation
import ParleyCore
import ParleyPostgres
import Testing

/// Issue 25, server half: sessions apply visibility, clearing, computed values and templates
/// exactly as DESIGN.md "Expressions" says, with the interpreter every core runs.
@Suite(.timeLimit(.minutes(10))) struct ExpressionSessionScenarioTests {
    /// A trip intake: "please specify" appears only for purpose `other`, the employer field of the
    /// next step only for `work` travellers, and the last steps recall the name and a premium
    /// computed from the cost.
    static func trip(id: String) -> String {
        """
        {"schema": "parley.flow/1", "id": "\(id)", "title": "Trip", "start": "about",
         "computed": {"premium": {"round": {"mul": [{"field": "cost"}, {"literal": "0.05"}]}, "scale": 2}},
         "steps": [
          {"id": "about", "screen": {"id": "about", "title": "About", "root": {"type": "vstack", "id": "r", "children": [
            {"type": "textField", "id": "n", "properties": {"fieldId": "firstName", "label": "First name",
              "validation": [{"rule": "required", "message": "Name?"}]}},
            {"type": "picker", "id": "p", "properties": {"fieldId": "purpose", "label": "Purpose",
              "options": ["holiday", "work", "other"], "validation": [{"rule": "required", "message": "Why?"}]}},
            {"type": "textField", "id": "o", "visibleWhen": {"field": "purpose", "equals": "other"},
              "properties": {"fieldId": "purposeOther", "label": "Please specify",
              "validation": [{"rule": "required", "message": "Say what it is."}]}}]}},
           "next": [{"goto": "cost"}]},
          {"id": "cost", "screen": {"id": "cost", "title": "Cost", "root": {"type": "vstack", "id": "r", "children": [
            {"type": "text", "id": "hello", "properties": {"text": {"template": ["Thanks, ", {"field": "firstName"}],
              "fallback": "Thanks"}}},
            {"type": "textField", "id": "e", "visibleWhen": {"field": "purpose", "equals": "work"},
              "properties": {"fieldId": "employer", "label": "Employer",
              "validation": [{"rule": "required", "message": "Employer?"}]}},
            {"type": "textField", "id": "c", "properties": {"fieldId": "cost", "label": "Trip cost",
              "validation": [{"rule": "required", "message": "Cost?"}, {"rule": "minimum", "value": 0}]}}]}},
           "next": [{"when": {"computed": "premium", "atLeast": "500"}, "goto": "review"}, {"goto": "done"}]},
          {"id": "review", "screen": {"id": "review", "title": "Review", "root": {"type": "vstack", "id": "r", "children": [
            {"type": "text", "id": "t", "properties": {"text": "A person will call you."}},
            {"type": "toggle", "id": "k", "properties": {"fieldId": "agree", "label": "Agree",
              "validation": [{"rule": "required", "message": "Agree?"}]}}]}},
           "next": [{"goto": "done"}]},
          {"id": "done", "screen": {"id": "done", "title": "Done", "root": {"type": "text", "id": "bye",
            "properties": {"text": {"template": ["Thanks, ", {"field": "firstName"}, " — your premium is ",
              {"computed": "premium"}], "fallback": "Thanks"}}}}, "next": []}],
         "upgrade": {"id": "upgrade", "root": {"type": "text", "id": "u", "properties": {"text": "Please update."}}}}
        """
    }

    static func released(_ service: ServiceHarness, prefix: String) throws -> String {
        let id = FlowFixture.uniqueId(prefix)
        let posted = try service.postFlow(trip(id: id))
        guard posted.status == 201 else { throw SessionFixture.Failure(description: "post: \(posted)") }
        let released = try service.release(id, version: 1)
        guard released.status == 201 else { throw SessionFixture.Failure(description: "release: \(released)") }
        return id
    }

    @Test func aHiddenRequiredFieldPassesAndItsValueIsClearedEverywhere() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try Self.released(service, prefix: "hidden")
            let secret = "hidden-\(UUID().uuidString.prefix(8).lowercased())"
            var snapshot = try service.startSession(id, core: "2.1.0").json
            // Required but hidden (purpose is not `other`): the step passes without it, and the value
            // sent anyway is cleared, listed, and stored nowhere.
            let answered = try service.answer(
                snapshot, ["firstName": "Ana", "purpose": "holiday", "purposeOther": secret])
            try #require(answered.status == 200, "\(answered)")
            #expect(answered.json["cleared"] == ["purposeOther"], "\(answered)")
            snapshot = answered.json
            #expect(snapshot.step == "cost")
            let nothing = try service.answer(snapshot, ["cost": "100"])
            try #require(nothing.status == 200, "\(nothing)")
            #expect(nothing.json["cleared"] == [], "always present")
            snapshot = nothing.json
            #expect(snapshot["status"] == "completed" && snapshot.step == "done")
            #expect(snapshot["screen"]?["screen"]?["root"]?["properties"]?["text"] == "Thanks, Ana — your premium is 5")

            let completion = try #require(try await SessionWalkScenarioTests.completion(service.pool, flow: id))
            #expect(completion.answers == ["firstName": "Ana", "purpose": "holiday", "cost": "100"])
            let key = SessionFixture.key(snapshot.sessionId)
            for (table, column) in [
                ("sessions", "path::text || \"values\"::text || forward::text"),
                ("session_log", "coalesce(answers::text, '') || coalesce(outcome::text, '')"),
                ("completions", "answers::text"),
            ] {
                let rows = try await service.pool.query(
                    "SELECT \(unsafeRaw: column) FROM \(unsafeRaw: table) WHERE \(unsafeRaw: table == "sessions" ? "key" : "session_key") = \(key)"
                )
                #expect(!rows.isEmpty, "\(table) has rows for the session")
                for row in rows {
                    let text: String = try row.decode(at: 0)
                    #expect(!text.contains(secret), "\(table) holds a cleared answer: \(text.prefix(300))")
                }
            }
            let feed = try service.client.send(
                "GET", "/v1/flows/\(id)/completions", headers: [ServiceHarness.bearer(service.admin)])
            #expect(feed.status == 200 && feed.text.contains("holiday") && !feed.text.contains(secret), "\(feed)")
            let dump = try SensitiveAnswersScenarioTests.pgDump()
            #expect(dump.contains("holiday") && !dump.contains(secret), "pg_dump shows a cleared answer")
        }
    }

    @Test func goingBackAndChangingTheAnswerThatShowedAFieldClearsIt() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try Self.released(service, prefix: "back")
            var snapshot = try service.startSession(id, core: "2.1.0").json
            snapshot = try service.advance(snapshot, ["firstName": "Ana", "purpose": "work"])
            // The employer field of the next step shows for work travellers: resolved from the path,
            // it is served without `visibleWhen`, the greeting as plain text.
            let root = snapshot["screen"]?["screen"]?["root"]
            #expect(root?["children"]?.item(0)?["properties"]?["text"] == "Thanks, Ana", "\(snapshot)")
            #expect(root?["children"]?.item(1)?["id"] == "e" && root?["children"]?.item(1)?["visibleWhen"] == nil)
            let missing = try service.answer(snapshot, ["cost": "100"])
            #expect(missing.status == 422 && missing.json["errors"]?.item(0)?["field"] == "employer", "\(missing)")
            snapshot = try service.advance(snapshot, ["employer": "Acme", "cost": "100"])
            #expect(snapshot["status"] == "completed")

            // A second session changes its mind: back to the first step, purpose holiday.
            var other = try service.startSession(id, core: "2.1.0").json
            other = try service.advance(other, ["firstName": "Bo", "purpose": "work"])
            let back = try service.back(other)
            try #require(back.status == 200, "\(back)")
            other = back.json
            #expect(other.step == "about" && other["values"]?["purpose"] == "work")
            other = try service.advance(other, ["firstName": "Bo", "purpose": "holiday"])
            let hidden = other["screen"]?["screen"]?["root"]?["children"]?.arrayValue?.map { $0["id"] }
            #expect(hidden == ["hello", "c"], "the employer field is dropped for a holiday: \(other)")
            let resent = try service.answer(other, ["employer": "Acme", "cost": "100"])
            try #require(resent.status == 200, "\(resent)")
            #expect(resent.json["cleared"] == ["employer"])
            let completions = try await service.pool.query(
                "SELECT answers::text FROM completions WHERE flow_id = \(id) ORDER BY id")
            let texts: [String] = try completions.map { try $0.decode(at: 0) }
            #expect(texts.count == 2)
            let last = try Answers(try JSONParser.parse(Array((texts.last ?? "").utf8)))
            #expect(last == ["firstName": "Bo", "purpose": "holiday", "cost": "100"], "only the visible fields")
        }
    }

    @Test func completionReplayRecomputesVisibilityAndRefusesATamperedPath() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try Self.released(service, prefix: "tamper")
            var snapshot = try service.startSession(id, core: "2.1.0").json
            snapshot = try service.advance(snapshot, ["firstName": "Ana", "purpose": "holiday"])
            // The stored answer now says `other`: "please specify" would have been shown and left
            // empty, so the path does not replay and the completion is refused, with a logged error.
            // session_log refuses updates (a trigger): the tamperer goes around it, as a person with
            // the database's superuser could.
            let hex = SessionFixture.key(snapshot.sessionId).map { String(format: "%02x", $0) }.joined()
            try await service.pool.query(
                """
                DO $$ BEGIN
                SET LOCAL session_replication_role = replica;
                UPDATE session_log SET answers = jsonb_set(answers, '{purpose}', '"other"')
                WHERE session_key = '\\x\(unsafeRaw: hex)'::bytea AND kind = 'answer';
                END $$
                """)
            let refused = try service.answer(snapshot, ["cost": "100"])
            #expect(refused.status == 409, "\(refused)")
            #expect(refused.problemType == "urn:parley:problem:session-replay-failed", "\(refused)")
            #expect(service.serverLog(0).contains("refused to complete a session"), "the refusal is logged")
            let rows = try await service.pool.query("SELECT count(*)::int FROM completions WHERE flow_id = \(id)")
            let count: Int = try #require(try rows.first?.decode(at: 0))
            #expect(count == 0)
        }
    }

    @Test func aComputedValueChoosesTheBranchAndATemplateOfAnEarlierStepReachesA10Core() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try Self.released(service, prefix: "computed")
            // premium = round(cost × 0.05, 2): 10,000 makes 500, the review branch.
            var snapshot = try service.startSession(id, core: "1.0.0").json
            snapshot = try service.advance(snapshot, ["firstName": "Ana", "purpose": "holiday"])
            #expect(
                snapshot["screen"]?["screen"]?["root"]?["children"]?.item(0)?["properties"]?["text"] == "Thanks, Ana",
                "a 1.0 core receives the recalled name as a plain string: \(snapshot)")
            snapshot = try service.advance(snapshot, ["cost": "10000"])
            #expect(snapshot.step == "review", "\(snapshot)")

            var cheap = try service.startSession(id, core: "2.1.0").json
            cheap = try service.advance(cheap, ["firstName": "Ana", "purpose": "holiday"])
            cheap = try service.advance(cheap, ["cost": "9999.8"])
            #expect(cheap.step == "done" && cheap["status"] == "completed", "499.99 stays below 500: \(cheap)")
        }
    }
}

/// Issue 25: the random expression vectors (`Tests/Conformance/expressions/random.json`, written
/// by an independent reference model) give the same value through the server's preview endpoint,
/// which evaluates with the interpreter sessions use, as ParleyCore gives in process.
@Suite(.timeLimit(.minutes(10))) struct ExpressionVectorsThroughTheServerTests {
    @Test func theRandomVectorsEvaluateAlikeOnTheServer() async throws {
        let file = ParleyBinary.packageRoot.appendingPathComponent("Tests/Conformance/expressions/random.json")
        let groups = try #require(try JSONParser.parse(Array(try Data(contentsOf: file))).arrayValue)
        try await ServiceHarness.run(inProcess: 1) { service in
            var checked = 0
            var refused = 0
            var total = 0
            for group in groups {
                let answers = try Answers(try #require(group["answers"]))
                let tests = group["tests"]?.arrayValue ?? []
                total += tests.count
                // Cases lint refuses (a scale over 20, say) are never evaluated: publishing refuses
                // them. The rest go to the server as one flow per group, one computed value each.
                let expressions = try tests.map { try #require($0["expression"]) }
                let rejected = Self.refusedByLint(expressions, fields: answers.fieldIds)
                var valid = JSONObject()
                var expected: [(name: String, value: JSONValue?, description: String)] = []
                var firstRefused: JSONValue?
                for (index, (test, expression)) in zip(tests, expressions).enumerated() {
                    if rejected.contains(index) {
                        refused += 1
                        firstRefused =
                            firstRefused
                            ?? Self.flow(computed: JSONObject([("v", expression)]), fields: answers.fieldIds)
                        continue
                    }
                    valid["v\(index)"] = expression
                    expected.append(("v\(index)", test["value"], test["description"]?.stringValue ?? ""))
                }
                if let firstRefused {
                    let response = try Self.preview(service, firstRefused, answers)
                    #expect(response.status == 422, "the server refuses what lint refuses: \(response)")
                }
                let response = try Self.preview(service, Self.flow(computed: valid, fields: answers.fieldIds), answers)
                try #require(response.status == 200, "\(group["description"] ?? ""): \(response)")
                let computed = response.json["evaluation"]?["computed"]
                for (name, value, description) in expected {
                    #expect(computed?[name] == value, "\(description): \(valid[name] ?? .null)")
                    checked += 1
                }
            }
            print("random expression vectors through the server: \(checked) equal, \(refused) refused by lint")
            #expect(total >= 10_000 && checked + refused == total)
            #expect(checked > total / 2, "most vectors are valid flows")
        }
    }

    /// The indices of `expressions` that lint refuses as the one computed value of ``flow(computed:fields:)``.
    ///
    /// Linting 10,000 one-value flows was most of this suite's CPU time, so a group is linted as
    /// one flow holding every expression (`v<index>`): an error under `/computed/v<index>` names
    /// a refused one. Each refusal found that way is confirmed on its own one-value flow, and a
    /// group with an error anywhere else (or a refusal not confirmed) is linted one flow per
    /// expression as before, so the split is exactly the one-flow-per-expression one.
    static func refusedByLint(_ expressions: [JSONValue], fields: [String]) -> Set<Int> {
        func refusedAlone(_ expression: JSONValue) -> Bool {
            FlowLinter().lint(flow: flow(computed: JSONObject([("v", expression)]), fields: fields)).contains(
                where: \.isError)
        }
        let together = JSONObject(expressions.enumerated().map { ("v\($0.offset)", $0.element) })
        var named: Set<Int> = []
        for problem in FlowLinter().lint(flow: flow(computed: together, fields: fields)) where problem.isError {
            let tokens = problem.pointer.tokens
            guard tokens.count >= 2, tokens[0] == "computed", tokens[1].first == "v",
                let index = Int(tokens[1].dropFirst()), expressions.indices.contains(index)
            else { return Set(expressions.indices.filter { refusedAlone(expressions[$0]) }) }
            named.insert(index)
        }
        guard named.allSatisfy({ refusedAlone(expressions[$0]) }) else {
            return Set(expressions.indices.filter { refusedAlone(expressions[$0]) })
        }
        return named
    }

    /// A flow whose first step asks for `fields` and whose second shows nothing: the computed
    /// values read the first step's answers (the preview's context).
    static func flow(computed: JSONObject, fields: [String]) -> JSONValue {
        let inputs = fields.map { field -> JSONValue in
            [
                "type": "textField", "id": .string("in-\(field)"),
                "properties": ["fieldId": .string(field), "label": .string(field)],
            ]
        }
        return [
            "schema": "parley.flow/1", "id": "vectors", "start": "in", "computed": .object(computed),
            "steps": [
                [
                    "id": "in", "next": [["goto": "out"]],
                    "screen": [
                        "id": "in", "title": "In", "root": ["type": "vstack", "id": "r", "children": .array(inputs)],
                    ],
                ],
                [
                    "id": "out", "next": [],
                    "screen": ["id": "out", "title": "Out", "root": ["type": "spacer", "id": "s"]],
                ],
            ],
        ]
    }

    static func preview(_ service: ServiceHarness, _ flow: JSONValue, _ answers: Answers) throws -> RawResponse {
        let body: JSONValue = ["flow": flow, "step": "out", "answers": [:], "context": answers.json]
        return try service.client.send(
            "POST", "/v1/flows/preview",
            headers: [ServiceHarness.bearer(service.author), ("Content-Type", "application/json")],
            body: CanonicalJSON.encode(body))
    }
}

extension JSONValue {
    /// The array element at `index`, nil when this is not an array or is too short.
    fileprivate func item(_ index: Int) -> JSONValue? {
        guard let items = arrayValue, index < items.count else { return nil }
        return items[index]
    }
}
