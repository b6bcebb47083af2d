import Synchronization

/// A counter that every request adds to, kept as one atomic per event loop (see ``LoopShards``
/// for why): an add touches only its loop's cache line; ``total`` sums the parts.
final class LoopCounter: Sendable {
    /// One part's atomic, padded onto cache lines of its own.
    private final class Part: Sendable {
        let value = Atomic<UInt64>(0)
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        private let morePadding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
            0, 0, 0, 0, 0, 0, 0, 0
        )
    }

    private let parts = (0..<LoopShards<Int>.count).map { _ in Part() }

    init() {}

    /// Adds `amount` to loop `loop`'s part and returns that part's new value.
    @discardableResult
    func add(_ amount: UInt64, loop: Int) -> UInt64 {
        parts[loop & (parts.count - 1)].value.wrappingAdd(amount, ordering: .relaxed).newValue
    }

    /// The sum of every part.
    var total: UInt64 {
        parts.reduce(0) { $0 &+ $1.value.load(ordering: .relaxed) }
    }
}
