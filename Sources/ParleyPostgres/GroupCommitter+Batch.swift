import Logging

extension GroupCommitter {
    /// What a batch's transaction needs: held by the queue's sender instead of the committer.
    struct Batch: Sendable {
        let pool: PostgresPool
        let logger: Logger
        let opening: [PostgresQuery]
        let closing: [PostgresQuery]
        /// Statements sent after `COMMIT` in the same round trip (``GroupCommitter/commitAlone(_:afterwards:)``).
        var afterwards: [PostgresQuery] = []
    }

    /// What one transaction over some units came to.
    enum Outcome {
        /// Committed: each unit's statements' rows, in order.
        case committed([[PostgresRows]])
        /// Rolled back because a statement (or the commit) failed; nothing was written.
        case failed(PostgresError)
    }

}

extension GroupCommitter.Batch {
    typealias Outcome = GroupCommitter.Outcome

    /// Commits `units` as one transaction; each unit's rows, or why it failed, in order.
    func commitUnits(_ units: [[PostgresQuery]]) async -> [Result<[PostgresRows], any Error>] {
        do {
            let (opening, closing, afterwards, logger) = (opening, closing, afterwards, logger)
            let outcome = try await pool.withConnection(cancellable: false) { connection in
                try await Self.transaction(
                    units, opening: opening, closing: closing, afterwards: afterwards, logger: logger, on: connection)
            }
            switch outcome {
            case .committed(let rows):
                return rows.map { .success($0) }
            case .failed(let error) where units.count == 1:
                return [.failure(error)]
            case .failed(let error):
                logger.info(
                    "group commit batch rolled back; retrying its units one by one",
                    metadata: ["units": "\(units.count)", "error": "\(error.kind)"])
                var results: [Result<[PostgresRows], any Error>] = []
                for unit in units { results.append(await commitUnits([unit])[0]) }
                return results
            }
        } catch {
            // No connection (nothing was sent), or it broke mid-batch (the outcome is unknown):
            // either way no caller may be told its write is stored.
            return units.map { _ in .failure(error) }
        }
    }

    /// `BEGIN`, the opening statements, every unit's statements, the closing ones, `COMMIT`, and
    /// the statements to run `afterwards` (their own implicit transaction), sent as one pipeline on
    /// `connection`. Throws when the connection broke; a failed statement before `COMMIT` rolls
    /// back and returns `.failed`; one afterwards is logged (the transaction is committed).
    static func transaction(
        _ units: [[PostgresQuery]], opening: [PostgresQuery] = [], closing: [PostgresQuery] = [],
        afterwards: [PostgresQuery] = [], logger: Logger? = nil, on connection: PostgresConnection
    ) async throws -> Outcome {
        // One array of the pipeline's statements, built in place: five concatenations allocated
        // four intermediate arrays per batch.
        var statements: [PostgresQuery] = []
        statements.reserveCapacity(
            2 + opening.count + units.reduce(0) { $0 + $1.count } + closing.count + afterwards.count)
        statements.append("BEGIN")
        statements.append(contentsOf: opening)
        for unit in units { statements.append(contentsOf: unit) }
        statements.append(contentsOf: closing)
        statements.append("COMMIT")
        statements.append(contentsOf: afterwards)
        let outcomes = try await connection.pipeline(statements)
        // The transaction's outcomes; those afterwards are only checked (the generic
        // `removeLast(_:)` that dropped them cost ~1,500 instructions a batch).
        let committed = outcomes.count - afterwards.count
        if !afterwards.isEmpty {
            for case .failure(let error) in outcomes[committed...] {
                // Skipped when the transaction failed; otherwise the commit stands.
                if error.discardsConnection { throw error }
                if case .success = outcomes[committed - 1] {
                    logger?.warning(
                        "statement after a group commit failed", metadata: ["error": "\(error.kind)"])
                }
                break
            }
        }
        var rows: [PostgresRows] = []
        rows.reserveCapacity(committed)
        for outcome in outcomes[..<committed] {
            switch outcome {
            case .success(let statementRows):
                rows.append(statementRows)
            case .failure(let error) where error.discardsConnection:
                throw error
            case .failure(let error):
                // The first failure is the cause; the statements after it were skipped.
                if connection.isInTransaction { try await connection.query("ROLLBACK") }
                return .failed(error)
            }
        }
        guard rows.last?.hasCommandTag("COMMIT") == true else {
            return .failed(PostgresError(.server, message: "the group transaction was rolled back at COMMIT"))
        }
        var perUnit: [[PostgresRows]] = []
        perUnit.reserveCapacity(units.count)
        var next = 1 + opening.count  // after BEGIN and the opening statements
        for unit in units {
            perUnit.append(Array(rows[next..<next + unit.count]))
            next += unit.count
        }
        return .committed(perUnit)
    }

    /// The opening statements, `statement` and the closing ones (an implicit transaction, committed
    /// at the sync point after them), then `afterwards` and `afterward` (another), as one pipeline on
    /// `connection` (``GroupCommitter/commitStatement(_:afterwards:)``): `statement`'s rows, or
    /// the first failure of its transaction thrown.
    static func implicitTransaction(
        _ statement: PostgresQuery, opening: [PostgresQuery] = [], closing: [PostgresQuery] = [],
        afterwards: [PostgresQuery] = [], afterward: PostgresQuery? = nil, logger: Logger? = nil,
        on connection: PostgresConnection
    ) async throws -> PostgresRows {
        var statements: [PostgresQuery]
        if opening.isEmpty, closing.isEmpty, afterwards.isEmpty, let afterward {
            // The session appender's every batch: a literal, not a reserved array grown by appends
            // (~200 instructions more, and ~60 for each `append(contentsOf:)` of an empty list).
            statements = [statement, afterward]
        } else {
            statements = []
            statements.reserveCapacity(
                opening.count + 1 + closing.count + afterwards.count + (afterward == nil ? 0 : 1))
            statements.append(contentsOf: opening)
            statements.append(statement)
            statements.append(contentsOf: closing)
            statements.append(contentsOf: afterwards)
            if let afterward { statements.append(afterward) }
        }
        let committed = opening.count + 1 + closing.count
        // The statements afterwards report only whether they failed: their rows are not kept.
        let outcomes = try await connection.pipeline(statements, syncAfter: committed, rowsKept: committed)
        for case .failure(let error) in outcomes[..<committed] {
            // The first failure is the cause (the rest of the segment was skipped); the sync
            // point rolled the transaction back. A lost connection's failure is every one's.
            if error.discardsConnection { throw error }
            reportAfterwards(outcomes[committed...], committed: false, logger: logger)
            throw error
        }
        reportAfterwards(outcomes[committed...], committed: true, logger: logger)
        return try outcomes[opening.count].get()
    }

    /// Logs the first failure of the statements run after a transaction (its outcome stands).
    private static func reportAfterwards(
        _ outcomes: ArraySlice<Result<PostgresRows, PostgresError>>, committed: Bool, logger: Logger?
    ) {
        for case .failure(let error) in outcomes {
            logger?.warning(
                "statement after a group commit failed",
                metadata: ["error": "\(error.kind)", "committed": "\(committed)"])
            return
        }
    }
}
