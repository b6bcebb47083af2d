import Foundation
import ParleyCore
import ParleyPostgres
import Testing

/// Retention (issue 18): `parley prune` deletes exactly the ended sessions past their flow's
/// retention (else the default), with their logs, completions and finished deliveries; a session
/// right at the boundary stays. On a database of its own: prune acts on every row.
@Suite(.timeLimit(.minutes(10))) struct PruneScenarioTests {
    /// The instant the CLI prunes "at"; every timestamp below is set relative to it.
    static let instant = "2030-01-01T00:00:00Z"

    @Test func pruneRemovesExactlyWhatIsPastRetentionAndEveryServerPrunesOnASchedule() async throws {
        let database = try await IsolatedDatabase.create()
        defer { database.close() }
        let server = try database.server(["--webhook-allow-private"])
        let service = try await database.harness(server)
        defer { server.stop() }
        _ = try service.registerWebhook("http://127.0.0.1:9/never")
        let short = FlowFixture.uniqueId("month")
        let monthly = SessionFixture.signup(id: short).replacingOccurrences(
            of: #""start": "email","#, with: #""start": "email", "retention": "P30D","#)
        try #require(try service.postFlow(monthly).status == 201)
        try #require(try service.release(short, version: 1).status == 201)
        let plain = try SessionFixture.released(service, prefix: "default")

        func completed(_ flow: String, ended days: String) async throws -> String {
            let id = try ErasureScenarioTests.complete(
                service, flow, email: "p@example.com", destination: "D-\(UUID().uuidString.prefix(6))")
            try await Self.set(service.pool, id, "completed_at = \(days)")
            return id
        }
        let pastMonth = try await completed(short, ended: Self.before("30 days 1 second"))
        let atBoundary = try await completed(short, ended: Self.before("30 days"))
        let pastDefault = try await completed(plain, ended: Self.before("90 days 1 second"))
        let withinDefault = try await completed(plain, ended: Self.before("89 days"))
        let expired = try service.startSession(short).json.sessionId
        try await Self.set(service.pool, expired, "status = 'expired', updated_at = \(Self.before("31 days"))")
        let idle = try service.startSession(short).json.sessionId
        try await Self.set(
            service.pool, idle, "created_at = \(Self.before("400 days")), expires_at = \(Self.before("399 days"))")
        let erased = try await completed(short, ended: Self.before("400 days"))
        let erasure = try service.client.send(
            "DELETE", "/v1/sessions/\(erased)", headers: [ServiceHarness.bearer(service.admin)])
        try #require(erasure.status == 204)
        // One finished delivery of a pruned session goes with it; its pending one stays to be delivered.
        try await service.pool.query(
            """
            UPDATE webhook_deliveries SET state = 'delivered', delivered_at = now()
            WHERE session_key = \(SessionFixture.key(pastMonth))
            """)
        try await service.pool.query(
            """
            INSERT INTO webhook_deliveries (webhook_id, session_key, message_id, event_type, payload)
            SELECT webhook_id, session_key, 'msg_pending', event_type, payload FROM webhook_deliveries
            WHERE session_key = \(SessionFixture.key(pastMonth))
            """)

        let environment = ["PARLEY_DATABASE_URL": database.url]
        let prune = ["prune", "--as-of", Self.instant, "--retention", "P90D", "--prune-batch", "2"]
        // Another process holding the prune lock: this run does nothing.
        try await database.pool.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(hashtextextended('parley.prune', 0))")
            let blocked = try ParleyExecutable.run(prune, environment: environment)
            #expect(blocked.status == 0 && blocked.stdout.contains("another process is pruning"), "\(blocked)")
            try await connection.query("SELECT pg_advisory_unlock(hashtextextended('parley.prune', 0))")
        }
        #expect(try await Self.remaining(service.pool).count == 7)

        let pruned = try ParleyExecutable.run(prune, environment: environment)
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(pruned.stdout.contains("sessions 3,") && pruned.stdout.contains("completions 2,"), "\(pruned.stdout)")
        #expect(pruned.stdout.contains("webhook_deliveries 1"), "\(pruned.stdout)")
        let kept = try await Self.remaining(service.pool)
        #expect(kept == Set([atBoundary, withinDefault, idle, erased].map(SessionFixture.key)))
        let orphans = try await service.pool.query(
            """
            SELECT (SELECT count(*) FROM session_log l WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.key = l.session_key))
                 + (SELECT count(*) FROM completions c WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.key = c.session_key))
                 + (SELECT count(*) FROM webhook_deliveries d
                    WHERE d.state <> 'pending' AND d.session_key = \(SessionFixture.key(pastMonth)))
            """)
        #expect(try orphans.first?.decode(Int.self, at: 0) == 0, "nothing is left of the pruned sessions")
        let pending = try await service.pool.query(
            "SELECT count(*) FROM webhook_deliveries WHERE session_key = \(SessionFixture.key(pastMonth))")
        #expect(try pending.first?.decode(Int.self, at: 0) == 1, "an undelivered event is still delivered")
        #expect(
            try service.client.send("GET", "/v1/sessions/\(pastDefault)").status == 404, "a pruned session is gone")

        // Every server prunes on its schedule, at the database's clock, and counts it in /metrics.
        try await Self.set(service.pool, withinDefault, "completed_at = now() - interval '91 days'")
        let scheduled = try database.server(["--prune-interval", "0.2"])
        defer { scheduled.stop() }
        let client = RawHTTPClient(port: scheduled.port)
        let deadline = Date().addingTimeInterval(60)
        var metrics = ""
        while !metrics.contains(#"parley_pruned_total{table="sessions"} 1"#), Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
            metrics = try client.send("GET", "/metrics").text
        }
        #expect(metrics.contains(#"parley_pruned_total{table="sessions"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"parley_prune_runs_total{outcome="pruned"}"#))
        #expect(try await Self.remaining(service.pool) == Set([atBoundary, idle, erased].map(SessionFixture.key)))
    }

    /// SQL for an instant `interval` before ``instant``.
    static func before(_ interval: String) -> String { "timestamptz '\(instant)' - interval '\(interval)'" }

    /// Sets columns of a session's row.
    static func set(_ pool: PostgresPool, _ id: String, _ assignments: String) async throws {
        try await pool.query("UPDATE sessions SET \(unsafeRaw: assignments) WHERE key = \(SessionFixture.key(id))")
    }

    /// The keys of every session left.
    static func remaining(_ pool: PostgresPool) async throws -> Set<Data> {
        Set(try await pool.query("SELECT key FROM sessions").map { try $0.decode(Data.self, at: 0) })
    }
}
