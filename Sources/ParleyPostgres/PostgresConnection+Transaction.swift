extension PostgresConnection {
    /// Runs `body` between `BEGIN` and `COMMIT`; rolls back and rethrows when it throws.
    ///
    /// A `COMMIT` the server turns into a rollback (an earlier statement failed and the error
    /// was swallowed) throws too, so a lost write never looks like success.
    @discardableResult
    public func withTransaction<T>(
        isolation level: IsolationLevel = .readCommitted,
        callerIsolation: isolated (any Actor)? = #isolation, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await query(PostgresQuery(unsafeSQL: "BEGIN ISOLATION LEVEL \(level.rawValue)"))
        let value: T
        do {
            value = try await body(self)
        } catch {
            if isOpen {
                do { try await query("ROLLBACK") } catch { close() }
            }
            throw error
        }
        let commit = try await query("COMMIT")
        guard commit.hasCommandTag("COMMIT") else {
            throw PostgresError(
                .server, message: "the transaction was rolled back at COMMIT because an earlier statement failed")
        }
        return value
    }
}
