import Foundation
import ParleyCore
import ParleyPostgres
import ParleyServer
import Testing

/// One acceptance test's world: the migrated database, real `parley serve`
/// processes, a raw client per process and tokens of every scope.
struct ServiceHarness: Sendable {
    /// A pool for direct checks (SQL, stores).
    let pool: PostgresPool
    /// The server processes.
    let servers: [ServerProcess]
    /// A client per server.
    let clients: [RawHTTPClient]
    /// Tokens with the `author`, `publish` and `admin` scopes.
    let author: String
    let publisher: String
    let admin: String

    /// The first server's client.
    var client: RawHTTPClient { clients[0] }

    /// Runs `body` against `servers` fresh server processes, stopping them whatever happens,
    /// then checks that no response of the whole test was a 5xx.
    static func run(
        servers count: Int = 1, arguments: [String] = [], _ body: (ServiceHarness) async throws -> Void
    ) async throws {
        let pool = try await TestEnvironment.migratedPool()
        defer { pool.shutdown() }
        var servers: [ServerProcess] = []
        defer { servers.forEach { $0.stop() } }
        for _ in 0..<count { servers.append(try ServerProcess(arguments: arguments)) }
        let harness = ServiceHarness(
            pool: pool, servers: servers, clients: servers.map { RawHTTPClient(port: $0.port) },
            author: try await TestEnvironment.token(.author, pool: pool),
            publisher: try await TestEnvironment.token(.publish, pool: pool),
            admin: try await TestEnvironment.token(.admin, pool: pool))
        do {
            try await body(harness)
        } catch {
            for server in servers { Issue.record("server log:\n\(server.log.suffix(4000))") }
            throw error
        }
        let errors = harness.clients.flatMap(\.serverErrors)
        #expect(errors.isEmpty, "the server answered 5xx: \(errors)")
        if !errors.isEmpty { for server in servers { Issue.record("server log:\n\(server.log.suffix(4000))") } }
    }

    /// `Authorization: Bearer <token>`.
    static func bearer(_ token: String) -> (String, String) { ("Authorization", "Bearer \(token)") }

    /// Posts a flow document as the designer; returns the response.
    @discardableResult
    func postFlow(_ json: String, ifMatch: Int? = nil, on client: RawHTTPClient? = nil) throws -> RawResponse {
        var headers = [Self.bearer(author)]
        if let ifMatch { headers.append(("If-Match", "\"\(ifMatch)\"")) }
        return try (client ?? self.client).sendJSON("POST", "/v1/flows", json, headers: headers)
    }

    /// Releases version `n` of a flow on production as the publisher.
    @discardableResult
    func release(_ flow: String, version: Int, on client: RawHTTPClient? = nil) throws -> RawResponse {
        try (client ?? self.client).sendJSON(
            "POST", "/v1/flows/\(flow)/releases", #"{"version": \#(version), "channel": "production"}"#,
            headers: [Self.bearer(publisher)])
    }

    /// `GET /v1/screens/{flow}[/{step}]` as a client with this core (nil: no header).
    func screen(
        _ flow: String, step: String? = nil, core: String?, headers: [(String, String)] = [],
        on client: RawHTTPClient? = nil
    ) throws -> RawResponse {
        var all = headers
        if let core { all.append(("Parley-Core", core)) }
        return try (client ?? self.client).send(
            "GET", "/v1/screens/\(flow)" + (step.map { "/\($0)" } ?? ""), headers: all)
    }

    /// `POST /v1/flows/{flow}/validate`: the stateless dry run for one step.
    func validate(
        _ flow: String, version: Int, step: String, answers: JSONValue, context: JSONValue? = nil
    ) throws -> RawResponse {
        var body = JSONObject()
        body["version"] = .number(JSONNumber(version))
        body["step"] = .string(step)
        body["answers"] = answers
        if let context { body["context"] = context }
        return try client.send(
            "POST", "/v1/flows/\(flow)/validate", headers: [("Content-Type", "application/json")],
            body: CanonicalJSON.encode(.object(body)))
    }
}

extension JSONValue {
    /// Node ids of a screen document's tree (children and the root), depth first.
    var nodeIds: [String] {
        var ids: [String] = []
        func visit(_ node: JSONValue) {
            if let id = node["id"]?.stringValue { ids.append(id) }
            node["children"]?.arrayValue?.forEach(visit)
        }
        if let root = self["root"] { visit(root) }
        return ids
    }

    /// The node of a screen document with this id.
    func node(_ id: String) -> JSONValue? {
        func find(_ node: JSONValue) -> JSONValue? {
            if node["id"]?.stringValue == id { return node }
            for child in node["children"]?.arrayValue ?? [] { if let hit = find(child) { return hit } }
            return nil
        }
        return self["root"].flatMap(find)
    }
}
