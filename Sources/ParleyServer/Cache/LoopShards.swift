import Synchronization

/// State that every request writes, split into one part per event loop.
///
/// Requests on different loops run on different cores. When they write one shared counter or
/// take one shared lock, the cache line holding it moves between the cores on every request
/// (a wait of a hundred cycles or more each time, which no instruction count shows). With a
/// part per loop, picked by the context's `loopIndex`, each loop writes only lines its own core
/// already holds; readers (the metrics page) visit every part. Each part keeps its own lock,
/// so a caller off the loops (a test, a responder thread) that lands on a loop's part is still
/// correct, only slower.
final class LoopShards<Value: Sendable>: Sendable {
    /// One part, padded so that two parts' locks and states never share a cache line (nor the
    /// pair of lines that adjacent-line prefetching fetches together).
    private final class Shard: Sendable {
        let state: Mutex<Value>
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        private let morePadding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
            0, 0, 0, 0, 0, 0, 0, 0
        )

        init(_ value: sending Value) { state = Mutex(value) }
    }

    /// Parts kept: a power of two, so a loop index picks its part with a mask. More loops than
    /// parts share parts, still correct.
    static var count: Int { 16 }

    private let shards: [Shard]

    /// Every part starts as `initial()`.
    init(_ initial: () -> Value) {
        shards = (0..<Self.count).map { _ in Shard(initial()) }
    }

    /// Runs `body` on the part of loop `loop` under its lock.
    func withLock<Result: Sendable>(loop: Int, _ body: (inout sending Value) -> sending Result) -> Result {
        shards[loop & (Self.count - 1)].state.withLock(body)
    }

    /// Every part's state, each read under its own lock (a snapshot per part, not of the whole).
    func snapshots() -> [Value] {
        shards.map { shard in shard.state.withLock { $0 } }
    }
}
