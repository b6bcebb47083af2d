public import Logging
import Synchronization

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
    struct Entry {
        let unit: [PostgresQuery]
        let continuation: CheckedContinuation<[PostgresRows], any Error>
    }

    /// Units waiting for a batch, and the batches in flight.
    struct Queue {
        var pending: [Entry] = []
        var batchesInFlight = 0
        var windowOpen = false
        var batches = 0
        var units = 0
    }

    let pool: PostgresPool
    let logger: Logger
    /// Statements every batch runs after `BEGIN`, before its units.
    let opening: [PostgresQuery]
    /// Statements every batch runs after its units, before `COMMIT` (in the same transaction).
    let closing: [PostgresQuery]
    private let queue = Mutex(Queue())
    private let window: Duration
    private let maximumUnits: Int
    private let concurrentBatches: Int

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
        self.window = pool.configuration.groupCommitWindow
        self.maximumUnits = max(1, pool.configuration.groupCommitMaximumUnits)
        // Batches that wait (on row locks, on a slow fsync) hold their connections; at most half
        // the pool goes to them, so the reads every write starts with still get one.
        self.concurrentBatches = max(
            1, min(pool.configuration.groupCommitConcurrentBatches, pool.configuration.maximumConnections / 2))
    }

    /// Commits `unit` (with other callers' units) and returns each of its statements' rows,
    /// once the transaction holding it has committed. Cancelling the caller does not take the
    /// unit back: once queued it is committed or fails, and the caller waits to learn which.
    public func commit(_ unit: [PostgresQuery]) async throws -> [PostgresRows] {
        guard !unit.isEmpty else { return [] }
        // With a batch slot free, the caller leads: it sends its unit and whatever waits, on
        // its own task, saving a task hop per unit when the load is light.
        let followers: [Entry]? = queue.withLock { queue in
            guard window == .zero, queue.batchesInFlight < concurrentBatches else { return nil }
            return takeBatch(&queue, leader: true)
        }
        if let followers {
            let results = await commitUnits([unit] + followers.map(\.unit))
            for (entry, result) in zip(followers, results.dropFirst()) { entry.continuation.resume(with: result) }
            finishBatch()
            return try results[0].get()
        }
        return try await withCheckedThrowingContinuation { continuation in
            enum Next {
                case send([Entry])
                case openWindow
                case wait
            }
            let next: Next = queue.withLock { queue in
                queue.pending.append(Entry(unit: unit, continuation: continuation))
                guard queue.batchesInFlight < concurrentBatches else { return .wait }
                if window == .zero || queue.pending.count >= maximumUnits { return .send(takeBatch(&queue)) }
                if queue.windowOpen { return .wait }
                queue.windowOpen = true
                return .openWindow
            }
            switch next {
            case .send(let batch): start(batch)
            case .openWindow:
                Task { [self] in
                    try? await Task.sleep(for: window)
                    closeWindow()
                }
            case .wait: break
            }
        }
    }

    /// How many batches and units were sent so far (units per batch measures how much batching
    /// happens), and how many units wait for a batch right now.
    public var statistics: (batches: Int, units: Int, waiting: Int) {
        queue.withLock { ($0.batches, $0.units, $0.pending.count) }
    }

    /// The window's time is up: send what gathered, if a batch slot is free.
    private func closeWindow() {
        let batch: [Entry]? = queue.withLock { queue in
            queue.windowOpen = false
            guard queue.batchesInFlight < concurrentBatches, !queue.pending.isEmpty else { return nil }
            return takeBatch(&queue)
        }
        if let batch { start(batch) }
    }

    /// Takes up to ``maximumUnits`` waiting units (one fewer beside a `leader`'s own) as the next
    /// batch and counts it in flight.
    private func takeBatch(_ queue: inout Queue, leader: Bool = false) -> [Entry] {
        let count = min(maximumUnits - (leader ? 1 : 0), queue.pending.count)
        let batch = Array(queue.pending.prefix(count))
        queue.pending.removeFirst(count)
        queue.batchesInFlight += 1
        queue.batches += 1
        queue.units += count + (leader ? 1 : 0)
        return batch
    }

    /// Sends `batch` on a task of its own and answers every caller in it.
    private func start(_ batch: [Entry]) {
        Task { [self] in
            let results = await commitUnits(batch.map(\.unit))
            for (entry, result) in zip(batch, results) { entry.continuation.resume(with: result) }
            finishBatch()
        }
    }

    /// Frees a batch slot; units that arrived meanwhile have waited a whole batch already, so
    /// they are sent at once.
    private func finishBatch() {
        let next: [Entry]? = queue.withLock { queue in
            queue.batchesInFlight -= 1
            return queue.pending.isEmpty ? nil : takeBatch(&queue)
        }
        if let next { start(next) }
    }
}
