import Testing

@testable import ParleyPostgres

/// A statement run through ``PostgresConnection/queryPlannedGenerically(_:)`` is never planned
/// for its values (issue 27, round 14: the session read kept replanning on a cluster that filled
/// after it was prepared), and the setting ends with its own transaction.
@Suite(.timeLimit(.minutes(10))) struct GenericPlanTests {
    /// Custom and generic plans Postgres counted for `sql` on `connection`.
    func plans(of sql: String, on connection: PostgresConnection) async throws -> (custom: Int, generic: Int) {
        let rows = try await connection.query(
            "SELECT custom_plans, generic_plans FROM pg_prepared_statements WHERE statement = \(sql)")
        return (
            try rows[0].decode(Int.self, column: "custom_plans"), try rows[0].decode(Int.self, column: "generic_plans")
        )
    }

    @Test func aStatementRunsOnItsGenericPlanOnlyAndTheSettingEndsWithIt() async throws {
        let pool = try TestDatabase.pool(maximumConnections: 1)
        defer { pool.shutdown() }
        try await pool.withConnection { connection in
            func generic(_ value: Int32) -> PostgresQuery {
                "SELECT count(*) AS n FROM pg_class WHERE relpages > \(value)::int4"
            }
            for value in Int32(0)..<7 {
                let rows = try await connection.queryPlannedGenerically(generic(value))
                #expect(try rows[0].decode(Int.self, column: "n") >= 0)
            }
            let forced = try await plans(of: generic(0).sql, on: connection)
            #expect(forced.custom == 0 && forced.generic == 7, "\(forced)")
            // The pool's other statements still choose: their first five runs are custom plans.
            func chosen(_ value: Int32) -> PostgresQuery {
                "SELECT count(*) AS n FROM pg_class WHERE relnatts > \(value)::int4"
            }
            for value in Int32(0)..<7 { _ = try await connection.query(chosen(value)) }
            #expect(try await plans(of: chosen(0).sql, on: connection).custom >= 5)
            let mode = try await connection.query("SELECT current_setting('plan_cache_mode') AS mode")
            #expect(try mode[0].decode(String.self, column: "mode") == "auto")
        }
    }

    @Test func aFailingStatementFailsWithItsOwnErrorAndTheConnectionGoesOn() async throws {
        let pool = try TestDatabase.pool(maximumConnections: 1)
        defer { pool.shutdown() }
        try await pool.withConnection { connection in
            let error = await #expect(throws: PostgresError.self) {
                try await connection.queryPlannedGenerically("SELECT * FROM no_such_table_here WHERE id = \(1)")
            }
            #expect(error?.sqlState == "42P01", "\(String(describing: error))")
            let rows = try await connection.queryPlannedGenerically("SELECT \(2)::int8 AS two")
            #expect(try rows[0].decode(Int.self, column: "two") == 2)
        }
    }
}
