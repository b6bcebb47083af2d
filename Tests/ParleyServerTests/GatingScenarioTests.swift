import ParleyCore
import ParleyPostgres
import Testing

/// Issue 8 acceptance, scenarios 1 and 2: designers post flows, publishers release
/// them, and each client core gets what it can render (real server, real Postgres).
@Suite(.timeLimit(.minutes(10))) struct GatingScenarioTests {
    /// A 1.0 client gets the picker fallback, a 1.2 client the quick replies; ETag/304, Vary, 400.
    @Test func quickRepliesFallBackForOldCores() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = FlowFixture.uniqueId("s1")
            let posted = try service.postFlow(FlowFixture.quickReplies(id: id))
            try #require(posted.status == 201, "\(posted)")
            #expect(posted.json["version"] == 1)
            #expect(posted.header("Parley-Flow-Version") == "1")
            let again = try service.postFlow(FlowFixture.quickReplies(id: id))
            #expect(again.status == 200 && again.json["version"] == 1, "identical content is the same version")

            let unreleased = try service.screen(id, core: "1.2.0")
            #expect(unreleased.status == 404 && unreleased.isProblem, "\(unreleased)")
            try #require(try service.release(id, version: 1).status == 201)

            let old = try service.screen(id, core: "1.0.0")
            try #require(old.status == 200, "\(old)")
            #expect(old.header("Parley-Flow-Version") == "1")
            #expect(old.header("Parley-Served") == "step")
            #expect(old.json["served"] == "step")
            #expect(old.json["version"] == 1)
            let oldScreen = try #require(old.json["screen"])
            #expect(oldScreen.node("mood") == nil)
            #expect(oldScreen.node("moodPicker")?["type"] == "picker")
            #expect(oldScreen.node("moodPicker")?["properties"]?["fieldId"] == "mood")
            let report = old.json["report"]?.arrayValue ?? []
            #expect(report.contains { $0["nodeId"] == "mood" && $0["action"] == "substituted" }, "\(report)")

            let new = try service.screen(id, core: "1.2.0")
            try #require(new.status == 200, "\(new)")
            #expect(new.header("Parley-Served") == "step")
            #expect(new.header("Parley-Flow-Version") == "1")
            #expect(new.json["screen"]?.node("mood")?["type"] == "quickReplies")
            #expect(new.json["screen"]?.node("moodPicker") == nil)
            #expect(new.json["report"]?.arrayValue?.isEmpty == true, "nothing gated for 1.2: \(new)")

            for response in [old, new] {
                #expect(response.header("Vary")?.contains("Parley-Core") == true)
                #expect(response.header("Cache-Control")?.contains("max-age") == true)
                let etag = try #require(response.header("ETag"))
                #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"), "a strong ETag: \(etag)")
            }
            #expect(old.header("ETag") != new.header("ETag"), "different payloads, different tags")
            let oldTag = try #require(old.header("ETag"))
            let revalidated = try service.screen(id, core: "1.0.0", headers: [("If-None-Match", oldTag)])
            #expect(revalidated.status == 304 && revalidated.body.isEmpty, "\(revalidated)")
            #expect(revalidated.header("ETag") == oldTag)
            let crossed = try service.screen(id, core: "1.2.0", headers: [("If-None-Match", oldTag)])
            #expect(crossed.status == 200, "a 1.0 tag does not match the 1.2 payload")

            // A 1.0 client answers through the picker; the quick replies' own rules decide.
            let welcome = try #require(try FlowFixture.flow(FlowFixture.quickReplies(id: id)).step("welcome"))
            let session = try service.startSession(id, core: "1.0.0")
            try #require(session.status == 201, "\(session)")
            #expect(session.json["screen"]?["screen"]?.node("moodPicker") != nil, "the session is gated for 1.0")
            let empty = try service.answer(session.json, [:])
            #expect(empty.status == 422, "\(empty)")
            let expected = RuleInterpreter(mode: .server).validate(screen: welcome.screen, answers: Answers())
            #expect(empty.json["errors"] == .array(expected.errors.map(\.json)))
            #expect(empty.json["errors"]?.arrayValue?.first?["message"] == "Choose one.")
            let chosen = try service.answer(session.json, ["mood": "great"])
            #expect(chosen.status == 200 && chosen.json["status"] == "completed", "\(chosen)")

            let byStep = try service.screen(id, step: "welcome", core: "1.0.0")
            #expect(byStep.status == 200 && byStep.header("ETag") == old.header("ETag"), "\(byStep)")
            let noStep = try service.screen(id, step: "nowhere", core: "1.0.0")
            #expect(noStep.status == 404 && noStep.problemType == "urn:parley:problem:not-found", "\(noStep)")

            let metrics = try service.client.send("GET", "/metrics").text
            #expect(
                metrics.contains(
                    #"parley_gating_substitutions_total{core="1.0",component="quickReplies",outcome="substituted"}"#),
                "gating substitutions by core and component: \(metrics)")

            let missing = try service.screen(id, core: nil)
            #expect(missing.status == 200 && missing.header("ETag") == oldTag, "no header means the floor core")
            for malformed in ["banana", "1.2.0.0", "01.2.0", "1", "v1.2.0"] {
                let response = try service.screen(id, core: malformed)
                #expect(response.status == 400 && response.isProblem, "Parley-Core \(malformed): \(response)")
            }
        }
    }

    /// v2 adds a 1.2-only date picker without fallback: the lint matrix says 1.0/1.1 get the
    /// upgrade screen, a stale If-Match is refused, and after release each core gets its screen.
    @Test func datePickerWithoutFallbackServesTheUpgradeScreen() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = FlowFixture.uniqueId("s2")
            try #require(try service.postFlow(FlowFixture.quickReplies(id: id)).status == 201)
            try #require(try service.release(id, version: 1).status == 201)
            let v2 = FlowFixture.withDatePicker(id: id)

            let lint = try service.client.sendJSON(
                "POST", "/v1/flows/lint", v2, headers: [ServiceHarness.bearer(service.author)])
            try #require(lint.status == 200, "\(lint)")
            #expect(lint.json["valid"] == true, "\(lint)")
            let steps = lint.json["servability"]?["steps"]?.arrayValue ?? []
            let welcome = try #require(steps.first { $0["id"] == "welcome" }?["servability"], "\(lint)")
            #expect(welcome["1.0.0"] == "upgrade")
            #expect(welcome["1.1.0"] == "upgrade")
            #expect(welcome["1.2.0"] == "native")
            #expect(welcome["2.0.0"] == "native")
            // Without an upgrade screen the same flow is refused, and the matrix still says why.
            let upgradeAt = try #require(v2.range(of: #","upgrade":"#) ?? v2.range(of: ",\n  \"upgrade\":"))
            let noUpgrade = String(v2[..<upgradeAt.lowerBound]) + " }"
            let refusedLint = try service.client.sendJSON(
                "POST", "/v1/flows/lint", noUpgrade, headers: [ServiceHarness.bearer(service.author)])
            #expect(refusedLint.json["valid"] == false, "\(refusedLint)")
            #expect(refusedLint.json["problems"]?.arrayValue?.first?["code"] == "unservableStep", "\(refusedLint)")
            let refusedSteps = refusedLint.json["servability"]?["steps"]?.arrayValue ?? []
            #expect(refusedSteps.first?["servability"]?["1.0.0"] == "notServable", "\(refusedLint)")
            #expect(
                try service.client.send(
                    "GET", "/v1/flows/\(id)/versions/2",
                    headers: [
                        ServiceHarness.bearer(service.author)
                    ]
                ).status == 404, "lint stores nothing")

            let posted = try service.postFlow(v2, ifMatch: 1)
            try #require(posted.status == 201, "\(posted)")
            #expect(posted.json["version"] == 2)
            let stale = try service.postFlow(FlowFixture.quickReplies(id: id, title: "Changed"), ifMatch: 1)
            #expect(stale.status == 412 && stale.isProblem, "\(stale)")
            #expect(stale.json["latestVersion"] == 2)
            let versions = try service.client.send(
                "GET", "/v1/flows/\(id)/versions", headers: [ServiceHarness.bearer(service.author)])
            #expect(versions.json["items"]?.arrayValue?.count == 2, "the 412 stored nothing: \(versions)")
            let fresh = FlowFixture.uniqueId("s2new")
            let refused = try service.postFlow(FlowFixture.quickReplies(id: fresh, title: "New"), ifMatch: 3)
            #expect(refused.status == 412, "\(refused)")
            let rows = try await service.pool.query("SELECT count(*)::bigint FROM flows WHERE id = \(fresh)")
            #expect(try rows[0].decode(Int.self, at: 0) == 0, "a refused post leaves no flow row behind")

            let beta = try service.client.sendJSON(
                "POST", "/v1/flows/\(id)/releases", #"{"version": 2, "channel": "beta"}"#,
                headers: [ServiceHarness.bearer(service.publisher)])
            #expect(beta.status == 201, "\(beta)")
            let onBeta = try service.client.send(
                "GET", "/v1/screens/\(id)?channel=beta", headers: [("Parley-Core", "1.2.0")])
            #expect(onBeta.header("Parley-Flow-Version") == "2", "\(onBeta)")
            let before = try service.screen(id, core: "1.0.0")
            #expect(before.header("Parley-Flow-Version") == "1", "v2 is not live on production before its release")
            let elsewhere = try service.client.send("GET", "/v1/screens/\(id)?channel=nightly")
            #expect(elsewhere.status == 404 && elsewhere.isProblem, "\(elsewhere)")
            try #require(try service.release(id, version: 2).status == 201)

            for core in ["1.0.0", "1.1.0"] {
                let old = try service.screen(id, core: core)
                try #require(old.status == 200, "\(old)")
                #expect(old.header("Parley-Flow-Version") == "2")
                #expect(old.header("Parley-Served") == "upgrade", "\(core): \(old)")
                #expect(old.json["served"] == "upgrade")
                #expect(old.json["screen"]?.nodeIds == ["please"], "\(old)")
            }
            let new = try service.screen(id, core: "1.2.0")
            try #require(new.status == 200, "\(new)")
            #expect(new.header("Parley-Flow-Version") == "2")
            #expect(new.header("Parley-Served") == "step")
            #expect(new.json["screen"]?.node("visited")?["type"] == "datePicker")
            #expect(new.json["screen"]?.node("mood")?["type"] == "quickReplies")

            let history = try service.client.send(
                "GET", "/v1/flows/\(id)/releases", headers: [ServiceHarness.bearer(service.publisher)])
            #expect(
                history.json["items"]?.arrayValue?.compactMap { $0["version"]?.numberValue?.intValue } == [2, 2, 1])
            let summary = try service.client.send(
                "GET", "/v1/flows/\(id)", headers: [ServiceHarness.bearer(service.author)])
            #expect(summary.json["releases"] == ["beta": 2, "production": 2], "\(summary)")
            #expect(summary.json["latestVersion"] == 2)

            // Lists page: versions newest first with a `before` cursor, flows by id with `after`
            // (two more flows, so there are at least three to page through).
            for _ in 0..<2 {
                let extra = FlowFixture.freeText(id: FlowFixture.uniqueId("s2x"), title: "Extra")
                try #require(try service.postFlow(extra).status == 201)
            }
            let firstPage = try service.client.send(
                "GET", "/v1/flows/\(id)/versions?limit=1", headers: [ServiceHarness.bearer(service.author)])
            #expect(firstPage.json["items"]?.arrayValue?.map { $0["version"] } == [2], "\(firstPage)")
            let cursor = try #require(firstPage.json["next"]?.stringValue, "\(firstPage)")
            let secondPage = try service.client.send(
                "GET", "/v1/flows/\(id)/versions?limit=1&before=\(cursor)",
                headers: [ServiceHarness.bearer(service.author)])
            #expect(secondPage.json["items"]?.arrayValue?.map { $0["version"] } == [1], "\(secondPage)")
            let flows = try service.client.send(
                "GET", "/v1/flows?limit=2", headers: [ServiceHarness.bearer(service.author)])
            let page = flows.json["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            #expect(page.count == 2, "\(flows)")
            let after = try #require(flows.json["next"]?.stringValue)
            let next = try service.client.send(
                "GET", "/v1/flows?limit=2&after=\(after)", headers: [ServiceHarness.bearer(service.author)])
            let nextIds = next.json["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            #expect(
                !nextIds.isEmpty && Set(nextIds).isDisjoint(with: page), "the next page starts after \(after): \(next)")
        }
    }
}
