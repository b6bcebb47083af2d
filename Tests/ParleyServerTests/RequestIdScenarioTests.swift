import Foundation
import ParleyCore
import Testing

/// Issue 16, logs: every response carries a request id (the client's when well-formed),
/// problem documents name it, and the access-log line of the request carries it too.
@Suite(.timeLimit(.minutes(10)), .offCooperativePool) struct RequestIdScenarioTests {
    @Test func aWellFormedClientIdIsEchoedInTheHeaderTheProblemAndTheLog() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = "client-\(UUID().uuidString.lowercased())"
            let missing = try service.client.send("GET", "/v1/flows/no-such-flow", headers: [("X-Request-Id", id)])
            #expect(missing.status == 401 || missing.status == 404, "\(missing)")
            #expect(missing.header("X-Request-Id") == id)
            #expect(missing.isProblem && missing.json["requestId"]?.stringValue == id, "\(missing)")
            let unknown = try service.client.send("GET", "/v1/nowhere", headers: [("X-Request-Id", id + "-2")])
            #expect(unknown.status == 404 && unknown.json["requestId"]?.stringValue == id + "-2", "\(unknown)")
            let health = try service.client.send("GET", "/healthz", headers: [("X-Request-Id", id + "-3")])
            #expect(health.status == 200 && health.header("X-Request-Id") == id + "-3")
            #expect(health.json["requestId"] == nil, "only problem documents gain a member")
            // Access-log lines are flushed in batches (by size, or within a flush interval): wait
            // for the last one, with a generous hang guard.
            let deadline = Date().addingTimeInterval(10)
            while !service.serverLog(0).contains("request_id=\(id)-3"), Date() < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let log = service.serverLog(0)
            for suffix in ["", "-2", "-3"] {
                #expect(log.contains("request_id=\(id)\(suffix)"), "no access-log line with \(id)\(suffix):\n\(log)")
            }
        }
    }

    @Test func aMissingOrUnsafeIdIsReplacedByAFreshOne() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let unsafe = [
                String(repeating: "a", count: 65), "has space", "quote\"d", "new%0Aline", "semi;colon", "ünïcode",
            ]
            var seen: Set<String> = []
            for given in unsafe + [nil] {
                let headers = given.map { [("X-Request-Id", $0)] } ?? []
                let response = try service.client.send("GET", "/healthz", headers: headers)
                let id = try #require(response.header("X-Request-Id"), "\(response)")
                #expect(id != given && !id.isEmpty && id.count <= 64, "\(given ?? "none") → \(id)")
                #expect(id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) })
                seen.insert(id)
            }
            #expect(seen.count == unsafe.count + 1, "every generated id is distinct: \(seen)")
            let longest = String(repeating: "b", count: 64)
            #expect(
                try service.client.send("GET", "/healthz", headers: [("X-Request-Id", longest)])
                    .header("X-Request-Id") == longest)
        }
    }

    /// `parley serve --log-format json`: every line of its output parses as one JSON object,
    /// and each request's access line carries the id the client saw.
    @Test func jsonLogLinesParseAndCarryTheRequestId() async throws {
        let pool = try await TestEnvironment.migratedPool()
        defer { pool.shutdown() }
        let token = try await TestEnvironment.token(.author, pool: pool)
        let server = try ServerProcess(arguments: ["--log-format", "json"])
        let client = RawHTTPClient(port: server.port)
        var ids: [String: String] = [:]  // request id → route the log must name
        let chosen = "json-\(UUID().uuidString.lowercased())"
        ids[try #require(client.send("GET", "/healthz", headers: [("X-Request-Id", chosen)]).header("X-Request-Id"))] =
            "/healthz"
        ids[
            try #require(
                client.send("GET", "/v1/flows", headers: [("Authorization", "Bearer \(token)")])
                    .header("X-Request-Id"))] = "/v1/flows"
        ids[try #require(client.send("GET", "/v1/sessions/secret-session-id").header("X-Request-Id"))] =
            "/v1/sessions/{id}"
        server.stop(keepingLog: true)
        let lines = server.log.split(separator: "\n")
        #expect(lines.count >= 5, "\(server.log)")
        var access: [String: JSONValue] = [:]
        for line in lines {
            let object = try JSONParser.parse(String(line))
            for key in ["time", "level", "message"] {
                #expect(object[key]?.stringValue != nil, "\(key) missing in \(line)")
            }
            if let id = object["request_id"]?.stringValue { access[id] = object }
        }
        #expect(ids.keys.contains(chosen))
        for (id, route) in ids {
            let line = try #require(access[id], "no log line with request id \(id)")
            #expect(line["route"]?.stringValue == route, "\(line)")
            #expect(line["status"]?.numberValue != nil && line["duration"]?.numberValue != nil, "\(line)")
        }
        #expect(!server.log.contains(token) && !server.log.contains("secret-session-id"), "secrets in the log")
    }
}
