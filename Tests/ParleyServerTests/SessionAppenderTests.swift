import ParleyPostgres
import ParleyTestSupport
import Testing

@testable import ParleyServer

/// Which changes of a session batch took their rev (issue 27), read from the rows the batch
/// statement returned: matched in place, in the order Postgres usually returns them, and still
/// right in any other order.
@Suite(.timeLimit(.minutes(10))) struct SessionAppenderTests {
    /// A change whose key is 32 bytes of `key` (hex: `key`'s two digits 32 times).
    static func change(_ key: UInt8, rev: Int) -> SessionAppend {
        SessionAppend(
            key: SessionKey(Array(repeating: key, count: 32))!, rev: rev, month: 202611, kind: "answer", step: "s",
            answers: [], outcome: "", nextStep: "",
            core: "1.2.0", expiresAt: 0, depth: 1)
    }

    /// Rows `(key, rev)` as the batch statement returns them.
    static func rows(_ pairs: [(String, Int)], pool: PostgresPool) async throws -> PostgresRows {
        var keys = PostgresTextArray()
        var revs = PostgresTextArray()
        for (key, rev) in pairs {
            keys.append(key)
            revs.append(rev)
        }
        return try await pool.query(
            PostgresQuery(
                unsafeSQL:
                    "SELECT k, r::integer FROM unnest($1::text[], $2::text[]) WITH ORDINALITY u (k, r, o) ORDER BY o",
                binds: [keys.bind, revs.bind]))
    }

    @Test func winnersAreMatchedInAnyOrder() async throws {
        let pool = PostgresPool(configuration: PostgresConfiguration(url: try TestEnvironment.databaseURL()))
        defer { pool.shutdown() }
        let a = String(repeating: "aa", count: 32)
        let b = String(repeating: "bb", count: 32)
        let sent = [
            Self.change(0xaa, rev: 2), Self.change(0xbb, rev: 2), Self.change(0xaa, rev: 3), Self.change(0xbb, rev: 12),
        ]
        let inOrder = try await Self.rows([(a, 2), (a, 3), (b, 12)], pool: pool)
        #expect(try SessionAppender.winners(inOrder, of: sent) == [true, false, true, true])
        let reversed = try await Self.rows([(b, 12), (a, 3), (b, 2)], pool: pool)
        #expect(try SessionAppender.winners(reversed, of: sent) == [false, true, true, true])
        let none = try await Self.rows([], pool: pool)
        #expect(try SessionAppender.winners(none, of: sent) == [false, false, false, false])
        // A rev that only shares its leading digits with a change's is not that change's.
        let near = try await Self.rows([(b, 1)], pool: pool)
        #expect(throws: SessionAppender.UnmatchedRow.self) { try SessionAppender.winners(near, of: sent) }
    }
}
