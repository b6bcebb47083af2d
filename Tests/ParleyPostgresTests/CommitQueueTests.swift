import ParleyPostgres
import Synchronization
import Testing

/// `spillAfter` (issue 27): one batch at a time while batches come back quickly; another beside
/// one that has been out longer than that.
@Suite(.timeLimit(.minutes(1))) struct CommitQueueTests {
    /// A queue whose batches are held until the test opens `gate`, which records each batch's items.
    func heldQueue(spillAfter: Duration) -> (CommitQueue<Int, Int>, Gate) {
        let gate = Gate()
        let queue = CommitQueue<Int, Int>(
            window: .zero, maximumItems: 64, concurrentBatches: 4, spillAfter: spillAfter
        ) { items in
            await gate.wait(items)
            return items.map { .success($0 * 10) }
        }
        return (queue, gate)
    }

    @Test func itemsWaitForTheBatchInFlightUntilItIsDue() async throws {
        let (queue, gate) = heldQueue(spillAfter: .seconds(600))
        let first = Task { try await queue.submit(0) }
        try await Deadline.waitUntil("the first batch out") { queue.statistics.batches == 1 }
        let others = (1...5).map { item in Task { try await queue.submit(item) } }
        try await Deadline.waitUntil("5 items waiting") { queue.statistics.waiting == 5 }
        #expect(queue.statistics.batches == 1, "no batch beside one that is not due")
        gate.open()
        #expect(try await first.value == 0)
        for (index, other) in others.enumerated() { #expect(try await other.value == (index + 1) * 10) }
        #expect(gate.batches.count == 2, "the 5 waiting items went as one batch")
    }

    @Test func itemsWaitingBesideABatchOutLongerThanSpillAfterGoWithoutAnotherArrival() async throws {
        let (queue, gate) = heldQueue(spillAfter: .milliseconds(50))
        let first = Task { try await queue.submit(0) }
        try await Deadline.waitUntil("the first batch out") { queue.statistics.batches == 1 }
        // Waits beside the first (or, on a slow machine, already goes beside it): either way it
        // must not wait for the held batch.
        let second = Task { try await queue.submit(1) }
        try await Deadline.waitUntil("a second batch beside the held one") { gate.batches.count == 2 }
        #expect(gate.batches == [[0], [1]])
        gate.open()
        #expect(try await first.value == 0)
        #expect(try await second.value == 10)
    }
}

/// Holds batches until opened (once open, lets every batch through), recording their items.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>], batches: [[Int]])>(
        (false, [], []))

    /// The items of every batch that reached the gate, in order.
    var batches: [[Int]] { state.withLock { $0.batches } }

    func wait(_ items: [Int]) async {
        await withCheckedContinuation { continuation in
            let go = state.withLock { state in
                state.batches.append(items)
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if go { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
