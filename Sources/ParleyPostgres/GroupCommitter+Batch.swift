extension GroupCommitter {
    /// What one transaction over some units came to.
    enum Outcome {
        /// Committed: each unit's statements' rows, in order.
        case committed([[PostgresRows]])
        /// Rolled back because a statement (or the commit) failed; nothing was written.
        case failed(PostgresError)
    }

    /// Runs `batch` as one transaction and answers every caller in it.
    func commitBatch(_ batch: [Entry]) async {
        do {
            let outcome = try await pool.withConnection { connection in
                try await Self.transaction(batch.map(\.unit), on: connection)
            }
            switch outcome {
            case .committed(let rows):
                for (entry, rows) in zip(batch, rows) { entry.continuation.resume(returning: rows) }
            case .failed(let error) where batch.count == 1:
                batch[0].continuation.resume(throwing: error)
            case .failed(let error):
                logger.info(
                    "group commit batch rolled back; retrying its units one by one",
                    metadata: ["units": "\(batch.count)", "error": "\(error.kind)"])
                await commitAlone(batch)
            }
        } catch {
            // No connection (nothing was sent), or it broke mid-batch (the outcome is unknown):
            // either way no caller may be told its write is stored.
            for entry in batch { entry.continuation.resume(throwing: error) }
        }
    }

    /// Commits each unit in its own transaction, so one bad unit fails alone.
    private func commitAlone(_ batch: [Entry]) async {
        for entry in batch {
            do {
                let outcome = try await pool.withConnection { connection in
                    try await Self.transaction([entry.unit], on: connection)
                }
                switch outcome {
                case .committed(let rows): entry.continuation.resume(returning: rows[0])
                case .failed(let error): entry.continuation.resume(throwing: error)
                }
            } catch {
                entry.continuation.resume(throwing: error)
            }
        }
    }

    /// `BEGIN`, every unit's statements, `COMMIT`, sent as one pipeline on `connection`.
    /// Throws when the connection broke; a failed statement rolls back and returns `.failed`.
    static func transaction(_ units: [[PostgresQuery]], on connection: PostgresConnection) async throws
        -> Outcome
    {
        let outcomes = try await connection.pipeline(["BEGIN"] + units.flatMap { $0 } + ["COMMIT"])
        var rows: [PostgresRows] = []
        rows.reserveCapacity(outcomes.count)
        for outcome in outcomes {
            switch outcome {
            case .success(let statementRows):
                rows.append(statementRows)
            case .failure(let error) where error.kind == .connectionLost:
                throw error
            case .failure(let error):
                // The first failure is the cause; the statements after it were skipped.
                if connection.isInTransaction { try await connection.query("ROLLBACK") }
                return .failed(error)
            }
        }
        guard rows.last?.commandTag == "COMMIT" else {
            return .failed(PostgresError(.server, message: "the group transaction was rolled back at COMMIT"))
        }
        var perUnit: [[PostgresRows]] = []
        perUnit.reserveCapacity(units.count)
        var next = 1  // after BEGIN
        for unit in units {
            perUnit.append(Array(rows[next..<next + unit.count]))
            next += unit.count
        }
        return .committed(perUnit)
    }
}
