import Foundation
import ParleyPostgres
import Testing

@Suite(.timeLimit(.minutes(10))) struct PoolTests {
    @Test func exhaustionTimesOutWithAClearError() async throws {
        var configuration = try TestDatabase.configuration(maximumConnections: 2)
        configuration.acquireTimeout = .milliseconds(300)
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let holders = Task {
            // A holder that fails (the database refuses connections) never yields: finishing the
            // stream then ends the test's wait for both, and `holders.value` says why.
            defer { holding.finish() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        try await pool.withConnection { connection in
                            try await connection.query("SELECT 1")
                            holding.yield()
                            for await _ in release { break }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let holdersReady: [Void]
        do {
            holdersReady = try await Deadline.elements(2, of: held, "both holders holding a connection")
        } catch {
            releasing.finish()
            holders.cancel()
            throw error
        }
        guard holdersReady.count == 2 else {
            releasing.finish()
            try await holders.value
            Issue.record("the holders stopped without holding both connections")
            return
        }
        let start = ContinuousClock.now
        let error = await #expect(throws: PostgresError.self) { try await pool.query("SELECT 1") }
        let waited = ContinuousClock.now - start
        #expect(error?.kind == .poolTimeout)
        #expect(error?.message.contains("maximumConnections=2") == true)
        // The kind proves the pool's own deadline fired; the upper bound is a hang guard only: a test
        // process whose two cooperative threads are held by blocking suites resumes this task late.
        #expect(waited >= .milliseconds(290) && waited < .seconds(300), "waited \(waited)")
        releasing.yield()
        releasing.yield()
        releasing.finish()
        try await holders.value
        let rows = try await pool.query("SELECT 1 AS one")
        #expect(try rows[0].decode(Int.self, column: "one") == 1, "the pool serves again once connections return")
    }

    @Test func manyTasksShareABoundedPool() async throws {
        // Sharing, not timing, is under test: a generous wait keeps a loaded CI machine from failing it.
        var configuration = try TestDatabase.configuration(maximumConnections: 3)
        configuration.acquireTimeout = .seconds(60)
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        let pids = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<60 {
                group.addTask {
                    let rows = try await pool.query("SELECT pg_backend_pid() AS pid, \(index) AS i")
                    #expect(try rows[0].decode(Int.self, column: "i") == index)
                    return try rows[0].decode(Int.self, column: "pid")
                }
            }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(pids.count <= 3, "never more than maximumConnections backends")
        #expect(pool.statistics.open <= 3)
        #expect(pool.statistics.waiting == 0)
    }

    @Test func aCancelledWaiterLeavesTheLine() async throws {
        var configuration = try TestDatabase.configuration(maximumConnections: 1)
        configuration.acquireTimeout = .seconds(30)
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        try await pool.withConnection { _ in
            let waiter = Task { try await pool.query("SELECT 1") }
            try await Deadline.waitUntil("the second caller waiting for the pool") { pool.statistics.waiting > 0 }
            waiter.cancel()
            await #expect(throws: CancellationError.self) { try await waiter.value }
            #expect(pool.statistics.waiting == 0)
        }
    }

    @Test func aTerminatedConnectionIsReplacedTransparently() async throws {
        let pool = try TestDatabase.pool(maximumConnections: 1)
        defer { pool.shutdown() }
        let before = try await pool.query("SELECT pg_backend_pid() AS pid")[0].decode(Int32.self, column: "pid")
        let killer = try await PostgresConnection.connect(configuration: try TestDatabase.configuration())
        defer { killer.close() }
        let killed = try await killer.query("SELECT pg_terminate_backend(\(before), 5000) AS done")
        #expect(try killed[0].decode(Bool.self, column: "done"))
        let after = try await pool.query("SELECT pg_backend_pid() AS pid")[0].decode(Int32.self, column: "pid")
        #expect(after != before, "the first use after the kill already ran on a new connection")
    }

    @Test func thePoolRecoversFromAServerRestartByItself() async throws {
        let cluster = try PrivateCluster.start()
        defer { cluster.destroy() }
        var configuration = PostgresConfiguration(url: cluster.url)
        configuration.maximumConnections = 3
        configuration.connectTimeout = .seconds(2)
        let pool = PostgresPool(configuration: configuration)
        defer { pool.shutdown() }
        try await withThrowingTaskGroup(of: Void.self) { group in  // warm several connections
            for _ in 0..<3 { group.addTask { try await pool.query("SELECT pg_sleep(0.05)") } }
            try await group.waitForAll()
        }
        #expect(pool.statistics.open == 3)
        try cluster.restart()
        for _ in 0..<6 {
            let rows = try await pool.query("SELECT 1 AS one")
            #expect(try rows[0].decode(Int.self, column: "one") == 1, "every query after the restart succeeds")
        }
        try cluster.stop()
        let down = await #expect(throws: PostgresError.self) { try await pool.query("SELECT 1") }
        #expect(down?.kind == .connectionFailed)
        try cluster.startAgain()
        let rows = try await pool.query("SELECT 1 AS one")
        #expect(try rows[0].decode(Int.self, column: "one") == 1, "back once the server is")
    }

    @Test func shutdownFailsLaterCallsClearly() async throws {
        let pool = try TestDatabase.pool()
        try await pool.query("SELECT 1")
        pool.shutdown()
        let error = await #expect(throws: PostgresError.self) { try await pool.query("SELECT 1") }
        #expect(error?.kind == .poolClosed)
        #expect(pool.statistics.open == 0)
    }
}
