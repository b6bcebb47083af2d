/// Gathers callers' items into batches and sends each batch with one call (issue 15, "Writes";
/// issue 27): the queueing of ``GroupCommitter``, for any kind of item, so a caller that can
/// write a whole batch as one statement (one multi-row insert) batches its own items.
///
/// With a batch slot free, a caller leads: it sends its own item and whatever waits, on its own
/// task. Otherwise its item waits for the next batch, sent as soon as a slot frees (or the
/// window closes). At most `concurrentBatches` batches are in flight; a batch holds at most
/// `maximumItems` items. With `spillAfter`, a batch beside others in flight starts only once the
/// newest of them has been out that long: one batch at a time while batches come back quickly
/// (fuller batches, fewer commits), more only beside one that is stuck (a lock, a slow flush).
/// Each caller gets its own item's result from `send`, which must return one result per item,
/// in order.
///
/// A batch that starts later is sent by the first of its waiting callers, woken to lead it, never
/// by a task of its own: an unstructured task runs on Swift's global pool, not on the caller's
/// task executor, so every batch cost a task's creation and a hop through a second set of threads
/// that woke and slept beside the server's responders (issue 27 round 10: the global pool's two
/// threads switched as often as both event loops together under a c=32 answer load).
///
/// Its parts are `@inlinable`: callers in other modules (the session appender) get a copy
/// specialised to their item type, instead of generic code that looks up the metadata of
/// `[Entry]`, `Optional<[Entry]>` and their slices on every submit (~10k instructions an answer).
public final class CommitQueue<Item: Sendable, Output: Sendable>: Sendable {
    /// Sends one batch; one result per item, in order.
    public typealias Send = @Sendable ([Item]) async -> [Result<Output, any Error>]

    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let item: Item
        /// Resumed exactly once: with the item's result by the batch's leader, or with the lead
        /// of a batch by whoever starts it (``start(_:)`` takes the entry out of `pending` under
        /// the lock, so no other path can reach it).
        @usableFromInline let continuation: UnsafeContinuation<Turn, Never>

        @inlinable
        init(item: Item, continuation: UnsafeContinuation<Turn, Never>) {
            self.item = item
            self.continuation = continuation
        }
    }

    /// What wakes a waiting caller: its item's result, or the lead of a batch (its own item first,
    /// then these).
    @usableFromInline
    enum Turn: Sendable {
        case done(Result<Output, any Error>)
        case lead([Entry])
    }

    /// What a queued item's caller does next.
    @usableFromInline
    enum Next: Sendable {
        case send([Entry])
        case openWindow
        /// Send what waits once the newest batch in flight is due (`spillAfter`) unless it comes
        /// back first: after this long.
        case spillIn(Duration)
        case wait
    }

    /// Items waiting for a batch, and the batches in flight.
    @usableFromInline
    struct Queue: Sendable {
        @usableFromInline var pending: [Entry] = []
        @usableFromInline var batchesInFlight = 0
        @usableFromInline var windowOpen = false
        /// A task will send what waits when the newest batch in flight is due.
        @usableFromInline var spillArmed = false
        @usableFromInline var batches = 0
        @usableFromInline var items = 0
        /// When the newest batch was taken (kept only with `spillAfter`).
        @usableFromInline var lastStart: ContinuousClock.Instant?

        @usableFromInline
        init() {}
    }

    /// Taken by every submitting request and every batch's end, from many threads: a lock whose
    /// waiters sleep (``SleepingMutex``), not the standard `Mutex`, whose spinning was 2-5% of
    /// the server's CPU under a c=32 answer load (perf, issue 27 round 8).
    @usableFromInline let queue = SleepingMutex(Queue())
    @usableFromInline let window: Duration
    @usableFromInline let maximumItems: Int
    @usableFromInline let concurrentBatches: Int
    @usableFromInline let spillAfter: Duration?
    @usableFromInline let send: Send

    /// A queue that sends batches of at most `maximumItems`, at most `concurrentBatches` at once
    /// (beside others only once the newest has been out `spillAfter`, when given), waiting
    /// `window` for more items before a batch when it is not zero.
    public init(
        window: Duration, maximumItems: Int, concurrentBatches: Int, spillAfter: Duration? = nil,
        send: @escaping Send
    ) {
        self.window = window
        self.maximumItems = max(1, maximumItems)
        self.concurrentBatches = max(1, concurrentBatches)
        self.spillAfter = spillAfter
        self.send = send
    }

    /// Arms the deadline that sends waiting items beside a batch in flight once it is due, so they
    /// do not wait for a stuck batch just because no other item arrived meanwhile.
    @inlinable
    func armSpill(_ queue: inout Queue) -> Next {
        guard let spillAfter, let lastStart = queue.lastStart, !queue.spillArmed,
            queue.batchesInFlight < concurrentBatches
        else { return .wait }
        queue.spillArmed = true
        return .spillIn(spillAfter - lastStart.duration(to: .now))
    }

    /// Calls ``spillDue()`` after `delay` (what ``armSpill(_:)`` armed), from the process's
    /// ``SpillClock`` (a task sleeping on the global pool cost three thread wake-ups a deadline).
    @inlinable
    func spill(after delay: Duration) {
        SpillClock.shared.arm(ObjectIdentifier(self), at: .now + delay) { [self] in spillDue() }
    }

    /// The newest batch in flight may be due: send what waits beside it (or arm again when a
    /// newer batch started meanwhile).
    @inlinable
    func spillDue() {
        let next: Next = queue.withLock { queue in
            queue.spillArmed = false
            guard !queue.pending.isEmpty else { return .wait }
            return mayStart(queue) ? .send(takeBatch(&queue)) : armSpill(&queue)
        }
        switch next {
        case .send(let batch): start(batch)
        case .spillIn(let delay): spill(after: delay)
        case .openWindow, .wait: break
        }
    }

    /// Whether another batch may start now.
    @inlinable
    func mayStart(_ queue: Queue) -> Bool {
        guard queue.batchesInFlight < concurrentBatches else { return false }
        guard queue.batchesInFlight > 0, let spillAfter, let lastStart = queue.lastStart else { return true }
        return lastStart.duration(to: .now) >= spillAfter
    }

    /// Sends `item` (with other callers' items) and returns its result once its batch is done.
    /// Cancelling the caller does not take the item back: once queued it is sent, and the caller
    /// waits to learn the outcome.
    @inlinable
    public func submit(_ item: Item) async throws -> Output {
        let followers: [Entry]? = queue.withLock { queue in
            guard window == .zero, mayStart(queue) else { return nil }
            return takeBatch(&queue, leader: true)
        }
        if let followers { return try await lead(item, with: followers) }
        let turn: Turn = await withUnsafeContinuation { continuation in
            let next: Next = queue.withLock { queue in
                queue.pending.append(Entry(item: item, continuation: continuation))
                guard mayStart(queue) else { return armSpill(&queue) }
                if window == .zero || queue.pending.count >= maximumItems { return .send(takeBatch(&queue)) }
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
            case .spillIn(let delay): spill(after: delay)
            case .wait: break
            }
        }
        switch turn {
        case .done(let result): return try result.get()
        case .lead(let followers): return try await lead(item, with: followers)
        }
    }

    /// Sends `item` first and `followers`' items after it, answers the followers, frees the batch
    /// slot and returns `item`'s result. A cancelled leader sends from a task of its own: the
    /// batch is its followers' too, and a send may give up early in a cancelled task.
    @inlinable
    func lead(_ item: Item, with followers: [Entry]) async throws -> Output {
        let items = followers.isEmpty ? [item] : [item] + followers.map { $0.item }
        let results = Task.isCancelled ? await Task { [send] in await send(items) }.value : await send(items)
        for (entry, result) in zip(followers, results.dropFirst()) {
            entry.continuation.resume(returning: .done(result))
        }
        finishBatch()
        return try results[0].get()
    }

    /// How many batches and items were sent so far, and how many items wait right now.
    public var statistics: (batches: Int, items: Int, waiting: Int) {
        queue.withLock { ($0.batches, $0.items, $0.pending.count) }
    }

    /// The window's time is up: send what gathered, if a batch slot is free.
    @inlinable
    func closeWindow() {
        let batch: [Entry]? = queue.withLock { queue in
            queue.windowOpen = false
            guard mayStart(queue), !queue.pending.isEmpty else { return nil }
            return takeBatch(&queue)
        }
        if let batch { start(batch) }
    }

    /// Takes up to ``maximumItems`` waiting items (one fewer beside a `leader`'s own) as the next
    /// batch and counts it in flight.
    @inlinable
    func takeBatch(_ queue: inout Queue, leader: Bool = false) -> [Entry] {
        let count = min(maximumItems - (leader ? 1 : 0), queue.pending.count)
        let batch = Array(queue.pending.prefix(count))
        queue.pending.removeFirst(count)
        queue.batchesInFlight += 1
        queue.batches += 1
        queue.items += count + (leader ? 1 : 0)
        if spillAfter != nil { queue.lastStart = .now }
        return batch
    }

    /// Wakes `batch`'s first caller to send it (on its own task, where its request runs).
    @inlinable
    func start(_ batch: [Entry]) {
        guard let first = batch.first else { return }
        first.continuation.resume(returning: .lead(Array(batch.dropFirst())))
    }

    /// Frees a batch slot; items that arrived meanwhile have waited a whole batch already, so
    /// they are sent at once (with `spillAfter`, when no other batch is out or it is due).
    @inlinable
    func finishBatch() {
        let next: [Entry]? = queue.withLock { queue in
            queue.batchesInFlight -= 1
            return queue.pending.isEmpty || !mayStart(queue) ? nil : takeBatch(&queue)
        }
        if let next { start(next) }
    }
}
