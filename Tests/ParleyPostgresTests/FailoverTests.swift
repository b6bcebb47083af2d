import Foundation
import ParleyPostgres
import Testing

/// A primary that stops answering is detected, not waited on, and connections to a demoted one
/// are dropped (issue 28). The whole failover, with pg_auto_failover, runs in deploy/ha-drills.
@Suite(.timeLimit(.minutes(2))) struct FailoverTests {
    @Test func aFrozenFirstHostIsPassedOverForTheNextOne() async throws {
        // The first host completes the TCP handshake and never speaks (a frozen primary): with
        // one deadline for the whole list, libpq 15's non-blocking connect would spend it there.
        let silent = try LoopbackPort(listening: true)
        defer { silent.close() }
        let real = try #require(URLComponents(string: try TestDatabase.url()))
        let port = try #require(real.port)
        var configuration = PostgresConfiguration(
            url: "postgres://\(real.user ?? "postgres")@127.0.0.1:\(silent.port),127.0.0.1:\(port)\(real.path)"
                + "?target_session_attrs=read-write&sslmode=disable")
        configuration.connectTimeout = .milliseconds(300)
        for _ in 0..<3 {
            let connection = try await PostgresConnection.connect(configuration: configuration)
            defer { connection.close() }
            let rows = try await connection.query("SELECT inet_server_port()")
            #expect(try rows.first?.decode(Int.self, at: 0) == port)
        }
    }

    @Test func noHostTakingAConnectionNamesEachHostsFailure() async throws {
        let silent = try LoopbackPort(listening: true)
        defer { silent.close() }
        var configuration = PostgresConfiguration(
            url: "postgres://parley@127.0.0.1:\(silent.port),127.0.0.1:1/parley?sslmode=disable")
        configuration.connectTimeout = .milliseconds(200)
        let error = await #expect(throws: PostgresError.self) {
            _ = try await PostgresConnection.connect(configuration: configuration)
        }
        #expect(error?.kind == .connectionFailed)
        #expect(
            error?.message.contains("host 1:") == true && error?.message.contains("host 2:") == true,
            "\(String(describing: error))")
    }

    @Test func aStatementPastItsDeadlineClosesTheConnection() async throws {
        // A statement past its deadline puts its server's `host:port` in quarantine for the whole
        // process (HostList): every pool then drops its idle connections to it. The same server
        // under a host name of its own (libpq dials `hostaddr`, names `host`) keeps that from the
        // suites running alongside on the shared URL (PoolTests counted the replaced backends).
        var url = try #require(URLComponents(string: try TestDatabase.url()))
        let address = url.host ?? "127.0.0.1"
        url.host = "parley-deadline-test"
        url.queryItems = (url.queryItems ?? []) + [URLQueryItem(name: "hostaddr", value: address)]
        var configuration = PostgresConfiguration(url: try #require(url.string))
        configuration.maximumConnections = 2
        configuration.applicationName = "parley-tests"
        configuration.connectTimeout = .seconds(5)
        configuration.queryTimeout = .milliseconds(300)
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        let error = await #expect(throws: PostgresError.self) {
            try await pool.query("SELECT pg_sleep(30)")
        }
        #expect(error?.kind == .connectionLost, "\(String(describing: error))")
        #expect(error?.message.contains("queryTimeout") == true, "\(String(describing: error))")
        #expect(pool.statistics.open == 0, "the connection was dropped, not put back")
        // The pool serves on with a fresh connection.
        let rows = try await pool.query("SELECT 1")
        #expect(try rows.first?.decode(Int.self, at: 0) == 1)
    }

    @Test func aReadOnlyServerErrorDiscardsTheConnection() async throws {
        // 25006 is what a primary demoted to a standby answers on connections opened before.
        let pool = try TestDatabase.pool(maximumConnections: 2)
        defer { pool.shutdown() }
        let table = TestDatabase.uniqueName("read_only")
        let error = await #expect(throws: PostgresError.self) {
            try await pool.withConnection { connection in
                try await connection.query("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
                do {
                    try await connection.query("CREATE TEMP TABLE \(unsafeRaw: table) (x int)")
                } catch {
                    #expect(!connection.isOpen, "a connection whose server refuses writes is not reused")
                    throw error
                }
            }
        }
        #expect(error?.kind == .readOnlyServer, "\(String(describing: error))")
        #expect(error?.sqlState == "25006")
        #expect(error?.discardsConnection == true)
        #expect(pool.statistics.open == 0)
        let rows = try await pool.query("SELECT current_setting('transaction_read_only')")
        #expect(try rows.first?.decode(String.self, at: 0) == "off", "a fresh connection, not the read-only one")
    }
}
