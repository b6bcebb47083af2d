import ParleyPostgres
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(10))) struct TransactionTests {
    struct Boom: Error {}

    @Test func commitsOnReturnAndRollsBackOnThrow() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let table = try await CounterTable.make(on: pool)
        try await pool.withTransaction { connection in
            try await connection.query("UPDATE \(identifier: table) SET n = 5 WHERE id = 1")
        }
        await #expect(throws: Boom.self) {
            try await pool.withTransaction(isolation: .serializable) { connection in
                try await connection.query("UPDATE \(identifier: table) SET n = 99 WHERE id = 1")
                try await connection.query("INSERT INTO \(identifier: table) VALUES (2, 2)")
                throw Boom()
            }
        }
        let rows = try await pool.query("SELECT n FROM \(identifier: table) ORDER BY id")
        #expect(rows.count == 1, "the insert was rolled back")
        #expect(try rows[0].decode(Int.self, column: "n") == 5, "the update was rolled back")
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    @Test func aSwallowedErrorMakesCommitThrow() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let error = await #expect(throws: PostgresError.self) {
            try await pool.withTransaction { connection in
                _ = try? await connection.query("SELECT 1/0")
            }
        }
        #expect(error?.message.contains("rolled back at COMMIT") == true)
    }

    @Test func aTransactionLeftOpenIsRolledBackOnRelease() async throws {
        let pool = try TestDatabase.pool(maximumConnections: 1)
        defer { pool.shutdown() }
        let table = try await CounterTable.make(on: pool)
        try await pool.withConnection { connection in
            try await connection.query("BEGIN")
            try await connection.query("UPDATE \(identifier: table) SET n = 42 WHERE id = 1")
        }
        let rows = try await pool.query("SELECT n FROM \(identifier: table)")
        #expect(try rows[0].decode(Int.self, column: "n") == 0)
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    @Test func serializationFailuresAreRetried() async throws {
        let pool = try TestDatabase.pool()
        defer { pool.shutdown() }
        let table = try await CounterTable.make(on: pool)
        let attempts = Mutex(0)
        try await pool.withTransaction(isolation: .serializable, maxAttempts: 3) { connection in
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            _ = try await connection.query("SELECT n FROM \(identifier: table) WHERE id = 1")
            if attempt == 1 {  // a competing writer commits between our read and our write
                try await pool.query("UPDATE \(identifier: table) SET n = n + 1 WHERE id = 1")
            }
            try await connection.query("UPDATE \(identifier: table) SET n = n + 10 WHERE id = 1")
        }
        #expect(attempts.withLock { $0 } == 2)
        let rows = try await pool.query("SELECT n FROM \(identifier: table)")
        #expect(try rows[0].decode(Int.self, column: "n") == 11)
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    @Test func concurrentSerializableIncrementsAllLand() async throws {
        let pool = try TestDatabase.pool(maximumConnections: 8)
        defer { pool.shutdown() }
        let table = try await CounterTable.make(on: pool)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try await pool.withTransaction(isolation: .serializable, maxAttempts: 50) { connection in
                        let rows = try await connection.query("SELECT n FROM \(identifier: table) WHERE id = 1")
                        let n = try rows[0].decode(Int.self, column: "n")
                        try await connection.query("UPDATE \(identifier: table) SET n = \(n + 1) WHERE id = 1")
                    }
                }
            }
            try await group.waitForAll()
        }
        let rows = try await pool.query("SELECT n FROM \(identifier: table)")
        #expect(try rows[0].decode(Int.self, column: "n") == 16, "no lost update under retries")
        try await pool.query("DROP TABLE \(identifier: table)")
    }
}
