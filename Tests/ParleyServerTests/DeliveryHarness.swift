import Foundation
import ParleyCore
import ParleyPostgres
import ParleyServer
import Testing

/// Delivery scenarios run on a database of their own: every server process delivers from the
/// outbox of its database, so a shared one would let other suites' servers claim these deliveries.
enum DeliveryHarness {
    /// Settings that make delivery quick to observe.
    static let fast = ["--webhook-allow-private", "--webhook-poll-interval", "0.1", "--no-access-log"]

    /// `fast` for an application in this process.
    static func fastDelivery(_ service: inout ServiceConfiguration) {
        service.webhookAllowPrivate = true
        service.webhookPollSeconds = 0.1
    }

    /// Runs `body` on a fresh migrated database with `servers` processes. The database is left for
    /// the cluster's owner (deploy/test throws the whole cluster away). Waits for a place at the
    /// ``HarnessGate`` first.
    static func run(
        servers count: Int = 1, arguments: [String] = fast, _ body: (ServiceHarness, String) async throws -> Void
    ) async throws {
        // Off the cooperative pool: starting and stopping a child blocks its thread (ServiceHarness.run).
        try await HarnessGate.run {
            try await ServiceHarness.offPool { try await runProcesses(count, arguments: arguments, body) }
        }
    }

    private static func runProcesses(
        _ count: Int, arguments: [String], _ body: (ServiceHarness, String) async throws -> Void
    ) async throws {
        let (url, pool) = try await database()
        var servers: [ServerProcess] = []
        do {
            for _ in 0..<count { servers.append(try ServerProcess(arguments: arguments, databaseURL: url)) }
            try await exercise(
                pool: pool, servers: servers, applications: [], clients: servers.map { RawHTTPClient(port: $0.port) },
                url: url, logs: { servers.map(\.log) }, body)
        } catch {
            servers.forEach { $0.stop() }
            pool.shutdown()
            throw error
        }
        servers.forEach { $0.stop() }
        pool.shutdown()
    }

    /// Runs `body` on a fresh migrated database with an application in this process, set up as
    /// `fastDelivery` and then `configure`: for scenarios where no process boundary is tested.
    /// Waits for a place at the ``HarnessGate`` first.
    static func run(
        _ mode: InProcessServer.Mode, configure: (inout ServiceConfiguration) -> Void = { _ in },
        database configureDatabase: (inout PostgresConfiguration) -> Void = { _ in },
        _ body: (ServiceHarness, String) async throws -> Void
    ) async throws {
        try await HarnessGate.run {
            try await runApplication(mode, configure: configure, database: configureDatabase, body)
        }
    }

    private static func runApplication(
        _ mode: InProcessServer.Mode, configure: (inout ServiceConfiguration) -> Void,
        database configureDatabase: (inout PostgresConfiguration) -> Void,
        _ body: (ServiceHarness, String) async throws -> Void
    ) async throws {
        let (url, pool) = try await database()
        var applications: [InProcessServer] = []
        do {
            let application = try await InProcessServer(
                mode, databaseURL: url,
                configure: {
                    fastDelivery(&$0)
                    configure(&$0)
                }, database: configureDatabase)
            applications.append(application)
            try await exercise(
                pool: pool, servers: [], applications: applications, clients: [application.client], url: url,
                logs: { applications.map(\.log) }, body)
        } catch {
            for application in applications { await application.stop() }
            pool.shutdown()
            throw error
        }
        for application in applications { await application.stop() }
        pool.shutdown()
    }

    /// A fresh database, migrated (a copy of the migrated template): its URL and a small pool on it.
    private static func database() async throws -> (url: String, pool: PostgresPool) {
        let url = try await TestEnvironment.migratedDatabase(prefix: "parley_delivery")
        var configuration = PostgresConfiguration(url: url)
        configuration.connectTimeout = .seconds(5)
        configuration.maximumConnections = 2
        return (url, PostgresPool(configuration: configuration))
    }

    /// Runs `body` off the cooperative pool with tokens of every scope, then checks for 5xx.
    private static func exercise(
        pool: PostgresPool, servers: [ServerProcess], applications: [InProcessServer], clients: [RawHTTPClient],
        url: String, logs: () -> [String], _ body: (ServiceHarness, String) async throws -> Void
    ) async throws {
        let service = ServiceHarness(
            pool: pool, servers: servers, applications: applications, clients: clients,
            author: try await AccessStore(pool: pool).createToken(name: "author", scopes: [.author]),
            publisher: try await AccessStore(pool: pool).createToken(name: "publisher", scopes: [.publish]),
            admin: try await AccessStore(pool: pool).createToken(name: "admin", scopes: [.admin]))
        do {
            try await ServiceHarness.offPool { try await body(service, url) }
        } catch {
            for log in logs() { Issue.record("server log:\n\(log.suffix(4000))") }
            throw error
        }
        let errors = service.clients.flatMap(\.serverErrors)
        #expect(errors.isEmpty, "the server answered 5xx: \(errors)")
    }
}

extension ServiceHarness {
    /// Registers `url` as admin; requires 201 and returns `(id, secret)`.
    func registerWebhook(_ url: String, events: [String]? = nil, on client: RawHTTPClient? = nil) throws
        -> (id: String, secret: String)
    {
        var body = JSONObject()
        body["url"] = .string(url)
        if let events { body["events"] = .array(events.map(JSONValue.string)) }
        let response = try (client ?? self.client).send(
            "POST", "/v1/webhooks", headers: [Self.bearer(admin), ("Content-Type", "application/json")],
            body: CanonicalJSON.encode(.object(body)))
        guard response.status == 201, let id = response.json["webhook"]?["id"]?.stringValue,
            let secret = response.json["secret"]?.stringValue
        else { throw SessionFixture.Failure(description: "register: \(response)") }
        return (id, secret)
    }

    /// `GET /v1/webhooks/{id}/deliveries` items.
    func deliveries(_ webhook: String) throws -> [JSONValue] {
        try client.send("GET", "/v1/webhooks/\(webhook)/deliveries", headers: [Self.bearer(admin)]).json["items"]?
            .arrayValue ?? []
    }

    /// Walks one signup session to completion (holiday branch).
    func completeSignup(_ flow: String, email: String = "a@example.com", on client: RawHTTPClient? = nil) throws {
        let started = try startSession(flow, on: client)
        guard started.status == 201 else { throw SessionFixture.Failure(description: "start: \(started)") }
        var snapshot = started.json
        let steps: [Answers] = [
            ["email": email], ["purpose": "holiday"], ["destination": "Lisbon"], ["emailAgain": email],
        ]
        for answers in steps {
            let answered = try answer(snapshot, answers, on: client)
            guard answered.status == 200 else { throw SessionFixture.Failure(description: "answer: \(answered)") }
            snapshot = answered.json
        }
        guard snapshot["status"] == "completed" else { throw SessionFixture.Failure(description: "\(snapshot)") }
    }
}
