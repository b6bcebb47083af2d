import Foundation
import ParleyCore
import ParleyServer
import Testing

/// Issue 8 acceptance, scenario 6: authentication, hostile input and client
/// mistakes get precise 4xx problem documents, never a 5xx, and stored data is verbatim.
@Suite(.timeLimit(.minutes(10))) struct RobustnessScenarioTests {
    @Test func tokensAndScopesAreEnforced() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = FlowFixture.uniqueId("s6a")
            let flow = FlowFixture.quickReplies(id: id)
            let client = service.client
            let cases: [(String, [(String, String)], Int)] = [
                ("missing", [], 401),
                ("unknown", [ServiceHarness.bearer("pt_" + String(repeating: "0", count: 64))], 401),
                ("not bearer", [("Authorization", "Basic dXNlcjpwYXNz")], 401),
                ("empty bearer", [("Authorization", "Bearer")], 401),
                ("two headers", [ServiceHarness.bearer(service.author), ServiceHarness.bearer(service.author)], 401),
                ("wrong scope", [ServiceHarness.bearer(service.publisher)], 403),
            ]
            for (name, headers, status) in cases {
                let response = try client.sendJSON("POST", "/v1/flows", flow, headers: headers)
                #expect(response.status == status && response.isProblem, "\(name): \(response)")
                if status == 401 { #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true) }
            }
            #expect(try client.send("GET", "/v1/flows").status == 401)
            #expect(try client.send("GET", "/v1/flows", headers: [ServiceHarness.bearer("nope")]).status == 401)
            try #require(try service.postFlow(flow).status == 201, "the author scope may post")
            let authorRelease = try client.sendJSON(
                "POST", "/v1/flows/\(id)/releases", #"{"version": 1}"#, headers: [ServiceHarness.bearer(service.author)]
            )
            #expect(authorRelease.status == 403 && authorRelease.isProblem, "\(authorRelease)")
            #expect(try service.screen(id, core: nil).status == 404, "nothing released by the 403")
            let adminRelease = try client.sendJSON(
                "POST", "/v1/flows/\(id)/releases", #"{"version": 1}"#, headers: [ServiceHarness.bearer(service.admin)])
            #expect(adminRelease.status == 201, "admin may do everything: \(adminRelease)")
            for token in [service.author, service.publisher, service.admin] {
                #expect(
                    try client.send("GET", "/v1/flows/\(id)", headers: [ServiceHarness.bearer(token)]).status == 200)
            }
            #expect(!service.serverLog(0).contains(service.author), "tokens never reach the log")

            // A revoked token is unknown from then on.
            let name = "revoked-\(UUID().uuidString.prefix(8))"
            let store = AccessStore(pool: service.pool)
            let doomed = try await store.createToken(name: name, scopes: [.author])
            #expect(try client.send("GET", "/v1/flows/\(id)", headers: [ServiceHarness.bearer(doomed)]).status == 200)
            #expect(try await store.revokeToken(name: name))
            let revoked = try client.send("GET", "/v1/flows/\(id)", headers: [ServiceHarness.bearer(doomed)])
            #expect(revoked.status == 401 && revoked.isProblem, "\(revoked)")
        }
    }

    @Test func aConfiguredClientKeyGuardsClientEndpoints() async throws {
        try await ServiceHarness.run(inProcess: 1, configure: { $0.clientKey = "k3y-for-apps" }) { service in
            let id = FlowFixture.uniqueId("s6k")
            try #require(try service.postFlow(FlowFixture.freeText(id: id, title: "Keyed")).status == 201)
            try #require(try service.release(id, version: 1).status == 201)
            let missing = try service.screen(id, core: "1.0.0")
            #expect(missing.status == 401 && missing.isProblem, "\(missing)")
            let wrong = try service.screen(id, core: "1.0.0", headers: [("Parley-Client-Key", "k3y-for-appz")])
            #expect(wrong.status == 401 && wrong.isProblem, "\(wrong)")
            let right = try service.screen(id, core: "1.0.0", headers: [("Parley-Client-Key", "k3y-for-apps")])
            #expect(right.status == 200, "\(right)")
            #expect(
                right.header("Cache-Control")?.hasPrefix("private,") == true, "keyed screens stay out of shared caches")
            let again = try service.screen(id, core: "1.0.0")
            #expect(again.status == 401, "a cached screen is still guarded: \(again)")
            let validate = try service.client.sendJSON(
                "POST", "/v1/flows/\(id)/validate", #"{"version": 1, "step": "note", "answers": {}}"#)
            #expect(validate.status == 401 && validate.isProblem, "\(validate)")
            let session = try service.client.sendJSON("POST", "/v1/sessions", #"{"flow": "\#(id)"}"#)
            #expect(session.status == 401 && session.isProblem, "\(session)")
            let keyed = try service.client.send(
                "POST", "/v1/sessions",
                headers: [("Content-Type", "application/json"), ("Parley-Client-Key", "k3y-for-apps")],
                body: Array(#"{"flow": "\#(id)"}"#.utf8))
            #expect(keyed.status == 201, "\(keyed)")
            #expect(try service.client.send("GET", "/healthz").status == 200, "ops endpoints stay open")
            let head = try service.client.send(
                "HEAD", "/v1/screens/\(id)", headers: [("Parley-Client-Key", "k3y-for-apps")])
            #expect(head.status == 200 && head.body.isEmpty && head.header("ETag") == right.header("ETag"), "\(head)")
        }
    }

    @Test func hostileInputIsStoredVerbatimAndMistakesGetProblems() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let client = service.client
            let auth = ServiceHarness.bearer(service.author)
            let id = FlowFixture.uniqueId("s6b")
            let title = "Robert'); DROP TABLE flows;--"
            let posted = try service.postFlow(FlowFixture.freeText(id: id, title: title))
            try #require(posted.status == 201, "\(posted)")
            #expect(posted.json["content"]?["title"] == .string(title))
            let read = try client.send("GET", "/v1/flows/\(id)/versions/1", headers: [auth])
            #expect(read.json["content"]?["title"] == .string(title), "\(read)")
            let summary = try client.send("GET", "/v1/flows/\(id)", headers: [auth])
            #expect(summary.json["title"] == .string(title), "\(summary)")
            try #require(try service.release(id, version: 1).status == 201)
            let injection = "' OR 1=1 --"
            let started = try service.startSession(id, core: "1.0.0")
            try #require(started.status == 201, "\(started)")
            let submitted = try service.answer(started.json, ["note": injection])
            #expect(submitted.status == 200 && submitted.json["status"] == "completed", "\(submitted)")
            let rows = try await service.pool.query(
                "SELECT answers->>'note' FROM completions WHERE flow_id = \(id) AND version = 1")
            #expect(rows.count == 1)
            #expect(try rows.first?.decode(String.self, at: 0) == injection)
            let hostileId = try client.send("GET", "/v1/flows/x'%20OR%20'1'='1", headers: [auth])
            #expect(hostileId.status == 404 && hostileId.isProblem, "\(hostileId)")

            // Malformed and wrongly typed bodies.
            let bodies: [(String, String, String, Int)] = [
                ("POST", "/v1/flows", #"{"schema": "parley.flow/1", "id": "#, 400),
                ("POST", "/v1/flows", "", 400),
                ("POST", "/v1/flows", "[1, 2", 400),
                ("POST", "/v1/flows", #"{"schema": "parley.flow/1"}"#, 422),
                ("POST", "/v1/flows/lint", "{nope}", 400),
                ("POST", "/v1/flows/\(id)/validate", #"{"version": "one", "step": "note", "answers": {}}"#, 400),
                ("POST", "/v1/flows/\(id)/validate", #"{"version": 1, "step": "note", "answers": {"note": 5}}"#, 400),
                ("POST", "/v1/flows/\(id)/validate", #"{"version": 1, "step": "note", "answers": [}"#, 400),
                ("POST", "/v1/flows/\(id)/releases", #"{"version": -1}"#, 400),
                ("POST", "/v1/flows/\(id)/releases", #"{"version": 7}"#, 404),
            ]
            for (method, path, body, status) in bodies {
                let token = path.hasSuffix("releases") ? service.publisher : service.author
                let response = try client.sendJSON(method, path, body, headers: [ServiceHarness.bearer(token)])
                #expect(response.status == status && response.isProblem, "\(method) \(path) \(body): \(response)")
            }
            // U+0000 cannot be stored by Postgres: refused up front, never a 500.
            let nulTitle = FlowFixture.freeText(id: FlowFixture.uniqueId("s6nul"), title: "a\u{0}b")
            let nulFlow = try service.postFlow(nulTitle)
            #expect(nulFlow.status == 400 && nulFlow.isProblem, "\(nulFlow)")
            for answers: JSONValue in [["note": "x\u{0}y"], ["no\u{0}te": "x"]] {
                let response = try service.validate(id, version: 1, step: "note", answers: answers)
                #expect(response.status == 400 && response.isProblem, "\(answers): \(response)")
            }
            for (path, token) in [
                ("/v1/screens/a%00b", nil), ("/v1/screens/\(id)/n%00te", nil), ("/v1/flows/a%00b", auth),
                ("/v1/flows?after=a%00b", auth), ("/v1/flows/a%00b/versions", auth), ("/v1/flows/a%00b/releases", auth),
            ] as [(String, (String, String)?)] {
                let response = try client.send("GET", path, headers: token.map { [$0] } ?? [])
                #expect((400..<500).contains(response.status) && response.isProblem, "\(path): \(response)")
            }
            let nulRelease = try client.sendJSON(
                "POST", "/v1/flows/a%00b/releases", #"{"version": 1}"#,
                headers: [ServiceHarness.bearer(service.publisher)])
            #expect(nulRelease.status == 400 && nulRelease.isProblem, "\(nulRelease)")
            let nulSubmit = try client.sendJSON(
                "POST", "/v1/flows/a%00b/validate", #"{"version": 1, "step": "note", "answers": {}}"#)
            #expect(nulSubmit.status == 400 && nulSubmit.isProblem, "\(nulSubmit)")

            // Numbers jsonb cannot hold (exact decimals beyond numeric's range): a 400, never a 500.
            for (name, property) in [
                ("minimum", #""validation": [{"rule": "minimum", "value": -1e999999}]"#),
                ("validation", #""validation": [{"rule": "maximum", "value": 1e999999}]"#),
            ] {
                let flow = FlowFixture.freeText(id: FlowFixture.uniqueId("s6num"), title: "Numbers")
                    .replacingOccurrences(of: #""label": "Note""#, with: #""label": "Note", "# + property)
                let response = try service.postFlow(flow)
                #expect((400..<500).contains(response.status) && response.isProblem, "\(name): \(response)")
            }

            let textPlain = try client.send(
                "POST", "/v1/flows", headers: [auth, ("Content-Type", "text/plain")],
                body: Array(FlowFixture.freeText(id: id, title: "x").utf8))
            #expect(textPlain.status == 415 && textPlain.isProblem, "\(textPlain)")
            let form = try client.send(
                "POST", "/v1/flows/\(id)/validate", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("version=1".utf8))
            #expect(form.status == 415 && form.isProblem, "\(form)")

            // Oversized bodies: a flow over 1 MiB, answers over 64 KiB.
            let hugeTitle = String(repeating: "a", count: (1 << 20) + 10)
            let hugeFlow = try client.send(
                "POST", "/v1/flows", headers: [auth, ("Content-Type", "application/json")],
                body: Array(FlowFixture.freeText(id: id, title: hugeTitle).utf8))
            #expect(hugeFlow.status == 413 && hugeFlow.isProblem, "\(hugeFlow)")
            let hugeAnswer = String(repeating: "b", count: 65 << 10)
            let hugeSubmit = try service.validate(
                id, version: 1, step: "note", answers: ["note": .string(hugeAnswer)])
            #expect(hugeSubmit.status == 413 && hugeSubmit.isProblem, "\(hugeSubmit)")

            // Unknown routes and methods.
            for (method, path) in [
                ("GET", "/v2/flows"), ("GET", "/v1/nothing"), ("DELETE", "/v1/flows"), ("PUT", "/v1/flows/\(id)"),
                ("GET", "/v1/screens"), ("GET", "/v1/screens/\(id)/note/extra"),
            ] {
                let response = try client.send(method, path, headers: [auth])
                #expect((400..<500).contains(response.status) && response.isProblem, "\(method) \(path): \(response)")
            }
            let bogusQuery = try client.send("GET", "/v1/flows?limit=abc", headers: [auth])
            #expect(bogusQuery.status == 400 && bogusQuery.isProblem, "\(bogusQuery)")
            let farCursor = try client.send("GET", "/v1/flows/\(id)/versions?before=99999999999", headers: [auth])
            #expect(farCursor.status == 200 && farCursor.json["items"]?.arrayValue?.count == 1, "\(farCursor)")
            let badVersion = try client.send("GET", "/v1/flows/\(id)/versions/abc", headers: [auth])
            #expect(badVersion.status == 400 && badVersion.isProblem, "\(badVersion)")
            let badChannel = try client.send("GET", "/v1/screens/\(id)?channel=%20", headers: [])
            #expect(badChannel.status == 400 && badChannel.isProblem, "\(badChannel)")

            // Still serving, and nothing lost.
            #expect(try client.send("GET", "/readyz").status == 200)
            let stillThere = try client.send("GET", "/v1/flows/\(id)/versions/1", headers: [auth])
            #expect(stillThere.json["content"]?["title"] == .string(title))
            #expect(client.exchanges.count > 30)
        }
    }
}
