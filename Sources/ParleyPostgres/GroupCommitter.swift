public import Logging

/// Commits many callers' writes in one transaction and one WAL flush (issue 15, "Writes").
///
/// A caller hands over a *unit*: statements that must commit together and that do not fail
/// on expected conflicts (`INSERT … ON CONFLICT DO NOTHING`, `UPDATE … WHERE rev = $n
/// RETURNING …`, data-modifying CTEs), so a conflict shows in the rows, not as an error.
/// Units that arrive while earlier batches are committing (or within
/// ``PostgresConfiguration/groupCommitWindow``) share one `BEGIN … COMMIT`, sent as one libpq
/// pipeline on one pooled connection: one round trip and one fsync for the whole batch.
///
/// Each caller gets its own statements' rows, and only after `COMMIT` succeeded, so an
/// acknowledged write is durable (with `synchronous_commit` on). When a batch fails because
/// one unit's statement failed, nothing in it was committed: every unit is retried alone in
/// its own transaction, so only the bad one fails. When the connection breaks mid-batch the
/// outcome is unknown and every caller in it gets ``PostgresError/Kind-swift.struct/connectionLost``
/// (never a success, and no blind retry that could apply a unit twice).
public final class GroupCommitter: Sendable {
    let pool: PostgresPool
    let logger: Logger
    /// Statements every batch runs after `BEGIN`, before its units.
    let opening: [PostgresQuery]
    /// Statements every batch runs after its units, before `COMMIT` (in the same transaction).
    let closing: [PostgresQuery]
    private let queue: CommitQueue<[PostgresQuery], [PostgresRows]>

    /// A committer over `pool`, with the batching settings of its configuration. `opening` and
    /// `closing` run once per batch, inside its transaction, around the units: e.g. a closing
    /// statement that announces every change of the batch in one `NOTIFY` (they must not fail
    /// on what the units did, or every batch would be retried unit by unit).
    public init(
        pool: PostgresPool, opening: [PostgresQuery] = [], closing: [PostgresQuery] = [],
        logger: Logger = Logger(label: "parley.postgres.group-commit")
    ) {
        self.pool = pool
        self.logger = logger
        self.opening = opening
        self.closing = closing
        // The queue's sender holds what a batch needs, not the committer (no cycle).
        let batch = Batch(pool: pool, logger: logger, opening: opening, closing: closing)
        self.queue = CommitQueue(
            window: pool.configuration.groupCommitWindow, maximumItems: pool.configuration.groupCommitMaximumUnits,
            concurrentBatches: Self.concurrentBatches(pool.configuration)
        ) { units in await batch.commitUnits(units) }
    }

    /// Batches that wait (on row locks, on a slow fsync) hold their connections; at most half
    /// the pool goes to them, so the reads every write starts with still get one.
    public static func concurrentBatches(_ configuration: PostgresConfiguration) -> Int {
        max(1, min(configuration.groupCommitConcurrentBatches, configuration.maximumConnections / 2))
    }

    /// Commits `unit` (with other callers' units) and returns each of its statements' rows,
    /// once the transaction holding it has committed. Cancelling the caller does not take the
    /// unit back: once queued it is committed or fails, and the caller waits to learn which.
    public func commit(_ unit: [PostgresQuery]) async throws -> [PostgresRows] {
        guard !unit.isEmpty else { return [] }
        return try await queue.submit(unit)
    }

    /// Commits `statements` as one transaction of their own, now (no batching): for a caller
    /// that batched its items itself (``CommitQueue``) into a few statements.
    ///
    /// `afterwards` run in the same round trip, after `COMMIT`, as a transaction of their own
    /// (the pipeline's implicit one): for work that must follow the commit but need not be part
    /// of it, such as a `NOTIFY` that would otherwise hold Postgres's database-wide notify lock
    /// through this transaction's WAL flush, serializing every notifying commit. They run only
    /// when the commit succeeded; their failure is logged, never the caller's (the commit stands).
    public func commitAlone(_ statements: [PostgresQuery], afterwards: [PostgresQuery] = []) async throws
        -> [PostgresRows]
    {
        let batch = Batch(pool: pool, logger: logger, opening: opening, closing: closing, afterwards: afterwards)
        return try await batch.commitUnits([statements])[0].get()
    }

    /// Commits `statement` as a transaction of its own, now (no batching), without `BEGIN` and
    /// `COMMIT`: the pipeline's sync point after it commits its implicit transaction. Then
    /// `afterwards` run in the same round trip, after a second sync point, as a transaction of
    /// their own. For a caller that batched its items itself (``CommitQueue``) into one
    /// statement: two statements and results fewer than ``commitAlone(_:afterwards:)``. The
    /// committer's opening and closing statements run around `statement`, in its transaction.
    ///
    /// Unlike ``commitAlone(_:afterwards:)``, `afterwards` run whether or not the statement
    /// committed (a failure skips only to its segment's sync point): use it only for statements
    /// that are harmless after a failed one, such as a `NOTIFY` that makes listeners drop cached
    /// state they would reload anyway. Their failure is logged, never the caller's.
    ///
    /// Returns the statement's rows once it committed. Throws its error when it (or its commit)
    /// failed, with nothing stored; throws ``PostgresError/Kind-swift.struct/connectionLost``
    /// when the connection broke, with the outcome unknown.
    public func commitStatement(_ statement: PostgresQuery, afterwards: [PostgresQuery] = []) async throws
        -> PostgresRows
    {
        let (opening, closing, logger) = (opening, closing, logger)
        return try await pool.withConnection(cancellable: false) { connection in
            try await Batch.implicitTransaction(
                statement, opening: opening, closing: closing, afterwards: afterwards, logger: logger, on: connection)
        }
    }

    /// ``commitStatement(_:afterwards:)`` with one statement afterwards, passed without an array
    /// of its own: the session appender's notification follows every batch.
    public func commitStatement(_ statement: PostgresQuery, afterward: PostgresQuery) async throws -> PostgresRows {
        let (opening, closing, logger) = (opening, closing, logger)
        return try await pool.withConnection(cancellable: false) { connection in
            try await Batch.implicitTransaction(
                statement, opening: opening, closing: closing, afterward: afterward, logger: logger, on: connection)
        }
    }

    /// How many batches and units were sent so far (units per batch measures how much batching
    /// happens), and how many units wait for a batch right now.
    public var statistics: (batches: Int, units: Int, waiting: Int) {
        let statistics = queue.statistics
        return (statistics.batches, statistics.items, statistics.waiting)
    }
}
