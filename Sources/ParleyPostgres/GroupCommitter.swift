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
/// One batch is in flight at a time while batches commit promptly: units that arrive meanwhile
/// go together in the next, which keeps batches full. Another is sent beside it only when every
/// batch in flight has run ``PostgresConfiguration/groupCommitStall`` (stuck on a row lock, say)
/// or a full batch waits, up to ``PostgresConfiguration/groupCommitConcurrentBatches``.
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

    /// Units sent together, and the number that marks the batch in flight until it finishes.
    struct Batch {
        let number: Int
        let entries: [Entry]
    }

    /// Units waiting for a batch, and the batches in flight.
    struct Queue {
        var pending: [Entry] = []
        /// When each batch in flight was sent, by batch number.
        var inFlight: [Int: ContinuousClock.Instant] = [:]
        var windowOpen = false
        /// Whether a task waits to send what is pending once the batches in flight are stalled.
        var stallWatch = false
        var batches = 0
        var units = 0

        var batchesInFlight: Int { inFlight.count }

        /// Whether a batch may be sent now beside those in flight: none is, or a slot is free
        /// and either a full batch waits or every batch in flight has run `stall`.
        func maySend(slots: Int, maximumUnits: Int, stall: Duration, now: ContinuousClock.Instant) -> Bool {
            guard !inFlight.isEmpty else { return true }
            guard inFlight.count < slots else { return false }
            if pending.count >= maximumUnits { return true }
            return inFlight.values.allSatisfy { now - $0 >= stall }
        }
    }

    let pool: PostgresPool
    let logger: Logger
    /// Statements every batch runs after `BEGIN`, before its units.
    let opening: [PostgresQuery]
    /// Statements every batch runs after its units, before `COMMIT` (in the same transaction).
    let closing: [PostgresQuery]
    private let queue = Mutex(Queue())
    private let window: Duration
    private let stall: Duration
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
        self.stall = pool.configuration.groupCommitStall
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
        // When a batch may go now (none in flight, or all in flight stalled), the caller leads:
        // it sends its unit and whatever waits, on its own task, saving a task hop per unit
        // when the load is light.
        let led: Batch? = queue.withLock { queue in
            guard window == .zero, maySend(queue) else { return nil }
            return takeBatch(&queue, leader: true)
        }
        if let led {
            let results = await commitUnits([unit] + led.entries.map(\.unit))
            for (entry, result) in zip(led.entries, results.dropFirst()) { entry.continuation.resume(with: result) }
            finishBatch(led.number)
            return try results[0].get()
        }
        return try await withCheckedThrowingContinuation { continuation in
            enum Next {
                case send(Batch)
                case openWindow
                case watchForStall
                case wait
            }
            let next: Next = queue.withLock { queue in
                queue.pending.append(Entry(unit: unit, continuation: continuation))
                guard maySend(queue) else {
                    // A batch is in flight: this unit goes with the next one, sent when a batch
                    // finishes, or beside them if they all stall.
                    if queue.stallWatch { return .wait }
                    queue.stallWatch = true
                    return .watchForStall
                }
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
            case .watchForStall: Task { [self] in await watchForStall() }
            case .wait: break
            }
        }
    }

    /// How many batches and units were sent so far (units per batch measures how much batching
    /// happens), and how many units wait for a batch right now.
    public var statistics: (batches: Int, units: Int, waiting: Int) {
        queue.withLock { ($0.batches, $0.units, $0.pending.count) }
    }

    /// The window's time is up: send what gathered, if a batch may be sent.
    private func closeWindow() {
        let batch: Batch? = queue.withLock { queue in
            queue.windowOpen = false
            guard !queue.pending.isEmpty, maySend(queue) else { return nil }
            return takeBatch(&queue)
        }
        if let batch { start(batch) }
    }

    /// Whether a batch may be sent now (``Queue/maySend(slots:maximumUnits:stall:now:)``).
    private func maySend(_ queue: Queue) -> Bool {
        queue.maySend(slots: concurrentBatches, maximumUnits: maximumUnits, stall: stall, now: .now)
    }

    /// While units wait behind batches in flight, looks every `stall`: sends them beside the
    /// others once those have all run that long; ends when nothing waits (a finishing batch
    /// sends what waits).
    private func watchForStall() async {
        while true {
            try? await Task.sleep(for: stall)
            let batch: Batch?? = queue.withLock { queue in
                guard !queue.pending.isEmpty else {
                    queue.stallWatch = false
                    return .some(nil)
                }
                guard maySend(queue) else { return nil }
                queue.stallWatch = false
                return .some(takeBatch(&queue))
            }
            switch batch {
            case .some(let batch?):
                start(batch)
                return
            case .some(nil): return
            case nil: continue
            }
        }
    }

    /// Takes up to ``maximumUnits`` waiting units (one fewer beside a `leader`'s own) as the next
    /// batch and counts it in flight.
    private func takeBatch(_ queue: inout Queue, leader: Bool = false) -> Batch {
        let count = min(maximumUnits - (leader ? 1 : 0), queue.pending.count)
        let batch = Array(queue.pending.prefix(count))
        queue.pending.removeFirst(count)
        queue.batches += 1
        queue.inFlight[queue.batches] = .now
        queue.units += count + (leader ? 1 : 0)
        return Batch(number: queue.batches, entries: batch)
    }

    /// Sends `batch` on a task of its own and answers every caller in it.
    private func start(_ batch: Batch) {
        Task { [self] in
            let results = await commitUnits(batch.entries.map(\.unit))
            for (entry, result) in zip(batch.entries, results) { entry.continuation.resume(with: result) }
            finishBatch(batch.number)
        }
    }

    /// Frees a batch slot; units that arrived meanwhile have waited a whole batch already, so
    /// they are sent at once.
    private func finishBatch(_ number: Int) {
        let next: Batch? = queue.withLock { queue in
            queue.inFlight[number] = nil
            return queue.pending.isEmpty ? nil : takeBatch(&queue)
        }
        if let next { start(next) }
    }
}
