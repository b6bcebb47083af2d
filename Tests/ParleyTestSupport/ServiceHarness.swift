import Foundation
public import ParleyCore
public import ParleyPostgres
public import ParleyServer
import Testing

/// One acceptance test's world: the migrated database, the servers (real `parley serve`
/// processes, or applications in this process), a raw client per server and tokens of every scope.
public struct ServiceHarness: Sendable {
    /// A pool for direct checks (SQL, stores).
    public let pool: PostgresPool
    /// The server processes (empty when the harness runs in process).
    public let servers: [ServerProcess]
    /// The in-process applications (empty when the harness runs processes).
    public let applications: [InProcessServer]
    /// A client per server.
    public let clients: [RawHTTPClient]
    /// Token with the `author` scope.
    public let author: String
    /// Token with the `publish` scope.
    public let publisher: String
    /// Token with the `admin` scope.
    public let admin: String

    /// A harness over servers started some other way (behind a proxy, on another cluster).
    public init(
        pool: PostgresPool, servers: [ServerProcess], applications: [InProcessServer] = [], clients: [RawHTTPClient],
        author: String, publisher: String, admin: String
    ) {
        self.pool = pool
        self.servers = servers
        self.applications = applications
        self.clients = clients
        self.author = author
        self.publisher = publisher
        self.admin = admin
    }

    /// The first server's client.
    public var client: RawHTTPClient { clients[0] }

    /// A client of server `index` of its own, whose exchanges the harness's 5xx check does not see.
    public func separateClient(_ index: Int = 0) -> RawHTTPClient {
        index < servers.count ? RawHTTPClient(port: servers[index].port) : applications[index].client
    }

    /// The port server `index` listens on (0 for an in-process application without a socket).
    public func port(_ index: Int = 0) -> UInt16 { index < servers.count ? servers[index].port : clients[index].port }

    /// What server `index` logged so far (a child process's output, or an in-process log).
    public func serverLog(_ index: Int) -> String {
        index < servers.count ? servers[index].log : applications[index].log
    }

    /// Runs `body` against `servers` fresh `parley serve` processes started with `arguments`,
    /// stopping them whatever happens, then checks that no response of the whole test was a 5xx.
    /// Waits for a place at the ``HarnessGate`` first.
    public static func run(
        servers count: Int = 1, arguments: [String] = [], _ body: (ServiceHarness) async throws -> Void
    ) async throws {
        // Off the cooperative pool: starting and stopping a child blocks its thread for as long
        // as the child takes, and the pool has one thread per core for every other test.
        try await HarnessGate.run { try await offPool { try await runProcesses(count, arguments: arguments, body) } }
    }

    private static func runProcesses(
        _ count: Int, arguments: [String], _ body: (ServiceHarness) async throws -> Void
    ) async throws {
        let pool = try await TestEnvironment.migratedPool()
        defer { pool.shutdown() }
        var servers: [ServerProcess] = []
        defer { servers.forEach { $0.stop() } }
        for _ in 0..<count { servers.append(try ServerProcess(arguments: arguments)) }
        try await exercise(
            pool: pool, servers: servers, applications: [], clients: servers.map { RawHTTPClient(port: $0.port) },
            logs: { servers.map(\.log) }, body)
    }

    /// Runs `body` against `count` ``ParleyApplication``s in this process, each configured by
    /// `configure`: for tests of the API, where a child process is not what is being tested.
    /// `.router` hands requests to the responder chain with no socket; `.live` listens on port 0
    /// for what only the wire shows (streams, framing, clients that dial a URL). Stops them
    /// whatever happens, then checks that nothing answered 5xx. Waits for a place at the
    /// ``HarnessGate`` first.
    public static func run(
        inProcess count: Int, _ mode: InProcessServer.Mode = .router,
        configure: (inout ServiceConfiguration) -> Void = { _ in },
        database: (inout PostgresConfiguration) -> Void = { _ in }, _ body: (ServiceHarness) async throws -> Void
    ) async throws {
        try await HarnessGate.run {
            try await runApplications(count, mode, configure: configure, database: database, body)
        }
    }

    private static func runApplications(
        _ count: Int, _ mode: InProcessServer.Mode, configure: (inout ServiceConfiguration) -> Void,
        database: (inout PostgresConfiguration) -> Void, _ body: (ServiceHarness) async throws -> Void
    ) async throws {
        let pool = try await TestEnvironment.migratedPool()
        defer { pool.shutdown() }
        var applications: [InProcessServer] = []
        do {
            for _ in 0..<count {
                applications.append(try await InProcessServer(mode, configure: configure, database: database))
            }
            try await exercise(
                pool: pool, servers: [], applications: applications, clients: applications.map(\.client),
                logs: { applications.map(\.log) }, body)
        } catch {
            for application in applications { await application.stop() }
            throw error
        }
        for application in applications { await application.stop() }
    }

    /// Runs a harness's `body` on ``TestBodyExecutor`` threads: its synchronous clients block
    /// those, never the cooperative pool the in-process servers and other tests need.
    public static func offPool<Value>(_ body: () async throws -> Value) async throws -> Value {
        try await withTaskExecutorPreference(TestBodyExecutor.shared) { try await body() }
    }

    private static func exercise(
        pool: PostgresPool, servers: [ServerProcess], applications: [InProcessServer], clients: [RawHTTPClient],
        logs: () -> [String], _ body: (ServiceHarness) async throws -> Void
    ) async throws {
        let harness = ServiceHarness(
            pool: pool, servers: servers, applications: applications, clients: clients,
            author: try await TestEnvironment.token(.author, pool: pool),
            publisher: try await TestEnvironment.token(.publish, pool: pool),
            admin: try await TestEnvironment.token(.admin, pool: pool))
        do {
            try await offPool { try await body(harness) }
        } catch {
            for log in logs() { Issue.record("server log:\n\(log.suffix(4000))") }
            throw error
        }
        if ServerLogs.directory != nil {
            for client in harness.clients {
                if let metrics = try? await client.execute("GET", "/metrics") { ServerLogs.keep(metrics: metrics.text) }
            }
        }
        let errors = harness.clients.flatMap(\.serverErrors)
        #expect(errors.isEmpty, "the server answered 5xx: \(errors)")
        if !errors.isEmpty { for log in logs() { Issue.record("server log:\n\(log.suffix(4000))") } }
    }

    /// `Authorization: Bearer <token>`.
    public static func bearer(_ token: String) -> (String, String) { ("Authorization", "Bearer \(token)") }

    /// Posts a flow document as the designer; returns the response.
    @discardableResult
    public func postFlow(_ json: String, ifMatch: Int? = nil, on client: RawHTTPClient? = nil) throws -> RawResponse {
        var headers = [Self.bearer(author)]
        if let ifMatch { headers.append(("If-Match", "\"\(ifMatch)\"")) }
        return try (client ?? self.client).sendJSON("POST", "/v1/flows", json, headers: headers)
    }

    /// Releases version `n` of a flow on production as the publisher.
    @discardableResult
    public func release(_ flow: String, version: Int, on client: RawHTTPClient? = nil) throws -> RawResponse {
        try (client ?? self.client).sendJSON(
            "POST", "/v1/flows/\(flow)/releases", #"{"version": \#(version), "channel": "production"}"#,
            headers: [Self.bearer(publisher)])
    }

    /// `GET /v1/screens/{flow}[/{step}]` as a client with this core (nil: no header).
    public func screen(
        _ flow: String, step: String? = nil, core: String?, headers: [(String, String)] = [],
        on client: RawHTTPClient? = nil
    ) throws -> RawResponse {
        var all = headers
        if let core { all.append(("Parley-Core", core)) }
        return try (client ?? self.client).send(
            "GET", "/v1/screens/\(flow)" + (step.map { "/\($0)" } ?? ""), headers: all)
    }

    /// `POST /v1/flows/{flow}/validate`: the stateless dry run for one step.
    public func validate(
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
    public var nodeIds: [String] {
        var ids: [String] = []
        func visit(_ node: JSONValue) {
            if let id = node["id"]?.stringValue { ids.append(id) }
            node["children"]?.arrayValue?.forEach(visit)
        }
        if let root = self["root"] { visit(root) }
        return ids
    }

    /// The node of a screen document with this id.
    public func node(_ id: String) -> JSONValue? {
        func find(_ node: JSONValue) -> JSONValue? {
            if node["id"]?.stringValue == id { return node }
            for child in node["children"]?.arrayValue ?? [] { if let hit = find(child) { return hit } }
            return nil
        }
        return self["root"].flatMap(find)
    }
}
