import ParleyCore
import ParleyServer
import Testing

/// Issue 8: `/openapi.json` is kept honest against the live router, and the ops
/// endpoints answer.
@Suite(.timeLimit(.minutes(10))) struct OpenAPIScenarioTests {
    /// Every `$ref` string in a document.
    static func references(in value: JSONValue) -> [String] {
        switch value {
        case .object(let object):
            var found: [String] = []
            for member in object {
                if member.key == "$ref", let reference = member.value.stringValue { found.append(reference) }
                found += references(in: member.value)
            }
            return found
        case .array(let items): return items.flatMap(references)
        default: return []
        }
    }

    @Test func everyDocumentedRouteAnswersOnTheLiveServer() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let client = service.client
            let document = try client.send("GET", "/openapi.json")
            try #require(document.status == 200, "\(document)")
            #expect(document.json["openapi"]?.stringValue?.hasPrefix("3.1") == true)
            let paths = try #require(document.json["paths"]?.objectValue)
            var documented: [String] = []
            for member in paths {
                for operation in member.value.objectValue ?? JSONObject() {
                    documented.append("\(operation.key) \(member.key)")
                }
            }
            #expect(Set(documented).count == documented.count, "an operation documented twice")
            // The document is generated from ServiceRoute.all, so comparing the two proves nothing:
            // ask the live router instead. A method the document does not list for a path must be
            // refused by the router (405), so no route answers that the document leaves out.
            for member in paths {
                var target = member.key
                while let open = target.firstIndex(of: "{"), let close = target[open...].firstIndex(of: "}") {
                    target.replaceSubrange(open...close, with: "x1")
                }
                let listed = Set((member.value.objectValue ?? JSONObject()).map { $0.key.uppercased() })
                for method in ["GET", "POST", "PUT", "PATCH", "DELETE"] where !listed.contains(method) {
                    let probe = try client.send(
                        method, target, headers: [ServiceHarness.bearer(service.admin)],
                        body: method == "GET" || method == "DELETE" ? nil : Array("{}".utf8))
                    #expect(probe.status == 405, "\(method) \(target) is not documented but answered \(probe)")
                }
            }

            for route in ServiceRoute.all {
                var target = route.path
                for name in route.pathParameters { target = target.replacingOccurrences(of: "{\(name)}", with: "x1") }
                var headers = [ServiceHarness.bearer(service.admin)]
                var body: [UInt8]?
                if route.method == "POST" {
                    headers.append(("Content-Type", "application/json"))
                    body = Array("{}".utf8)
                }
                let response = try client.send(route.method, target, headers: headers, body: body)
                let label = "\(route.method) \(target)"
                #expect(response.status != 405, "\(label): \(response)")
                if response.status == 404 {
                    #expect(
                        response.problemType == "urn:parley:problem:not-found", "\(label) has no route: \(response)")
                }
                let statuses = route.responses.map(\.status) + route.problems
                #expect(statuses.contains(response.status), "\(label) answered an undocumented \(response)")
            }

            // Every $ref resolves, every path parameter is declared, and the documented
            // security matches the live server: a route needing a token refuses a call without one.
            let schemas = try #require(document.json["components"]?["schemas"]?.objectValue)
            for reference in Self.references(in: document.json) {
                let name = String(reference.dropFirst("#/components/schemas/".count))
                #expect(reference.hasPrefix("#/components/schemas/") && schemas[name] != nil, "dangling \(reference)")
            }
            for route in ServiceRoute.all {
                let operation = try #require(paths[route.path]?[route.method.lowercased()])
                let declared = (operation["parameters"]?.arrayValue ?? []).filter { $0["in"] == "path" }
                #expect(declared.compactMap { $0["name"]?.stringValue } == route.pathParameters, "\(route.path)")
                let open = operation["security"]?.arrayValue.map { $0.isEmpty || $0.contains([:]) } ?? true
                var target = route.path
                for name in route.pathParameters { target = target.replacingOccurrences(of: "{\(name)}", with: "x1") }
                let anonymous = try client.send(
                    route.method, target, headers: [("Content-Type", "application/json")],
                    body: route.method == "POST" ? Array("{}".utf8) : nil)
                #expect((anonymous.status == 401) == !open, "\(route.method) \(route.path): \(anonymous)")
            }

            #expect(try client.send("GET", "/healthz").status == 200)
            let ready = try client.send("GET", "/readyz")
            #expect(ready.status == 200 && ready.json["status"] == "ready", "\(ready)")

            // A rejection shows in the metrics by rule and core version.
            let id = FlowFixture.uniqueId("s7")
            try #require(try service.postFlow(FlowFixture.branching(id: id)).status == 201)
            try #require(try service.release(id, version: 1).status == 201)
            let started = try service.startSession(id, core: "1.1.3")
            try #require(started.status == 201, "\(started)")
            let rejected = try service.answer(started.json, ["email": "x", "emailAgain": "y", "purpose": "work"])
            #expect(rejected.status == 422, "\(rejected)")
            let metrics = try client.send("GET", "/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
            #expect(
                metrics.text.contains(
                    #"parley_http_requests_total{route="/openapi.json",method="GET",status="200"} 3"#),
                "fetched three times: \(metrics)")
            #expect(metrics.text.contains(#"parley_submit_rejections_total{rule="email",core="1.1"} 1"#), "\(metrics)")
            #expect(metrics.text.contains(#"parley_submit_rejections_total{rule="equalsField",core="1.1"} 1"#))
            #expect(metrics.text.contains("parley_http_request_duration_seconds_bucket"))
        }
    }
}
