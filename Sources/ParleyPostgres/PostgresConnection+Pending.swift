import CLibPQ
import Glibc

extension PostgresConnection.Pending {
    /// Takes the next result libpq has ready (the caller checked `PQisBusy`); true once every
    /// statement is answered (and, in pipeline mode, the pipeline ended and was left).
    mutating func read(from connection: OpaquePointer) -> Bool {
        guard let result = PQgetResult(connection) else {
            if pipelined, results.count == segmentEnd {
                // After the segment's last statement, before its sync: its commit failed (libpq
                // reports the error as a result of its own, then a `NULL`).
                failSegment()
                return false
            }
            // One item's results are complete: a `Parse` of ours, or a caller's statement.
            let item = answered < sent.count ? sent[answered] : .statement(nil)
            answered += 1
            switch item {
            case .prepare(let number):
                if let error {
                    carried = error
                    forget.append(number)
                }
            case .statement(let number):
                if results.count < expected {
                    if let failure = carried ?? error {
                        results.append(.failure(failure))
                        if failure.discardsConnection { discards = true }
                        if let number, PreparedStatements.isGone(failure) { forget.append(number) }
                    } else {
                        results.append(.success(rows ?? .empty))
                    }
                    carried = nil
                }
            }
            rows = nil
            error = nil
            return !pipelined
        }
        switch PQresultStatus(result) {
        case PGRES_PIPELINE_SYNC:
            PQclear(result)
            failSegment()
            syncsLeft -= 1
            guard syncsLeft == 0 else {
                segmentStart = results.count
                return false
            }
            PQexitPipelineMode(connection)
            return true
        case PGRES_PIPELINE_ABORTED:
            PQclear(result)
            error = PostgresError(
                .server, message: "skipped: an earlier statement in the same pipeline failed", query: query)
        default:
            do {
                // A `COMMIT` or `ROLLBACK` keeps its rows past `rowsKept` too: ``failSegment()``
                // reads their command tags.
                if results.count < rowsKept || Self.endsTransaction(result) {
                    // The rows own the result from here (no copy: they read it in place).
                    rows = try rowsOrError(result, connection: connection, query: query)
                } else {
                    // Rows nobody reads: only whether it failed.
                    try checkResult(result, connection: connection, query: query)
                    PQclear(result)
                }
            } catch let failure as PostgresError {
                PQclear(result)
                error = error ?? failure
            } catch {
                PQclear(result)
            }
        }
        return false
    }
}

extension PostgresConnection.Pending {
    /// Whether `result` is a `COMMIT`'s or a `ROLLBACK`'s (its command tag).
    static func endsTransaction(_ result: OpaquePointer) -> Bool {
        guard let status = PQcmdStatus(result) else { return false }
        return strcmp(status, "COMMIT") == 0 || strcmp(status, "ROLLBACK") == 0
    }

    /// Where the segment being read ends in `results`.
    var segmentEnd: Int { syncsLeft > 1 ? firstSegment : expected }

    /// An error read after the segment's last statement (its implicit transaction's commit failed)
    /// fails the statements of that transaction: those after the segment's last explicit
    /// transaction end (`COMMIT`, `ROLLBACK`), which stand. Nothing when no such error was read.
    mutating func failSegment() {
        guard let failure = error, results.count == segmentEnd else { return }
        var start = segmentStart
        for index in segmentStart..<results.count {
            if case .success(let rows) = results[index], rows.hasCommandTag("COMMIT") || rows.hasCommandTag("ROLLBACK")
            {
                start = index + 1
            }
        }
        for index in start..<results.count { results[index] = .failure(failure) }
        if failure.discardsConnection, start < results.count { discards = true }
        rows = nil
        error = nil
    }
}
