extension PostgresConnection {
    /// Runs `query` on its generic plan (``forceGenericPlan`` first, in the same implicit
    /// transaction, so the setting ends with it) and returns its rows: for a prepared statement
    /// whose custom plans must not come back once the tables it reads have grown (see
    /// ``forceGenericPlan``). One round trip, one more statement.
    public func queryPlannedGenerically(_ query: PostgresQuery) async throws -> PostgresRows {
        try await pipeline([Self.forceGenericPlan, query])[1].get()
    }

    /// `plan_cache_mode = force_generic_plan` for the rest of the current transaction.
    ///
    /// Why: a prepared statement plans its first five executions for their own values and keeps
    /// the average cost of every custom plan it makes; afterwards it runs the cached generic plan
    /// only while that costs no more than the average. One prepared while its tables were nearly
    /// empty keeps an average from those tables, so once they have grown the generic plan looks
    /// dearer and the statement is planned again on call after call (the first server of a bench
    /// run: 4,340 plans in 7,892 calls of the session read, ~300 µs each) until enough expensive
    /// custom plans raise the average, and again after each analyse. Postgres reads the setting
    /// at every `Bind`, so set locally it applies to the statements after it in its transaction
    /// only: the pool's other statements keep choosing their plans as before.
    public static let forceGenericPlan = PostgresQuery(
        unsafeSQL: "SELECT set_config('plan_cache_mode', 'force_generic_plan', true)")
}
