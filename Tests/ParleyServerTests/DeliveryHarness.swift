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

    /// Runs `body` on a fresh migrated database with `servers` processes. The database is left for
    /// the cluster's owner (deploy/test throws the whole cluster away).
    static func run(
        servers count: Int = 1, arguments: [String] = fast, _ body: (ServiceHarness, String) async throws -> Void
    ) async throws {
        let base = try TestEnvironment.databaseURL()
        let name = "parley_delivery_\(UUID().uuidString.prefix(8).lowercased())"
        // Patient connects (5 s, like TestEnvironment's): a saturated machine may take over a second.
        var adminConfiguration = PostgresConfiguration(url: base)
        adminConfiguration.connectTimeout = .seconds(5)
        let admin = PostgresPool(configuration: adminConfiguration)
        do {
            try await admin.query("CREATE DATABASE \(unsafeRaw: name)")
            admin.shutdown()
        } catch {
            admin.shutdown()
            throw error
        }
        let url = try #require(base.range(of: "/", options: .backwards).map { base[..<$0.lowerBound] + "/" + name })
        var configuration = PostgresConfiguration(url: String(url))
        configuration.connectTimeout = .seconds(5)
        configuration.maximumConnections = 2
        let pool = PostgresPool(configuration: configuration)
        _ = try await Migrator(directory: TestEnvironment.migrations).migrate(on: pool)
        var servers: [ServerProcess] = []
        do {
            for _ in 0..<count { servers.append(try ServerProcess(arguments: arguments, databaseURL: String(url))) }
            let service = ServiceHarness(
                pool: pool, servers: servers, clients: servers.map { RawHTTPClient(port: $0.port) },
                author: try await AccessStore(pool: pool).createToken(name: "author", scopes: [.author]),
                publisher: try await AccessStore(pool: pool).createToken(name: "publisher", scopes: [.publish]),
                admin: try await AccessStore(pool: pool).createToken(name: "admin", scopes: [.admin]))
            do {
                try await body(service, String(url))
            } catch {
                for server in servers { Issue.record("server log:\n\(server.log.suffix(4000))") }
                throw error
            }
            let errors = service.clients.flatMap(\.serverErrors)
            #expect(errors.isEmpty, "the server answered 5xx: \(errors)")
        } catch {
            servers.forEach { $0.stop() }
            pool.shutdown()
            throw error
        }
        servers.forEach { $0.stop() }
        pool.shutdown()
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
