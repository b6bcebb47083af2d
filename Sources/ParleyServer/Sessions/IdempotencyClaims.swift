import Synchronization

/// The `Idempotency-Key`s whose requests this process is committing right now (DESIGN.md
/// "Sessions": a retry while the first is in flight answers 409). Group-committed changes share
/// one transaction, so a transaction-scoped advisory lock can no longer tell two of them apart;
/// across processes the rev guard decides, and the loser replays the winner's recorded response.
final class IdempotencyClaims: Sendable {
    private let held = Mutex(Set<String>())

    /// Claims `key`; false when another request holds it.
    func claim(_ key: String) -> Bool {
        held.withLock { $0.insert(key).inserted }
    }

    /// Gives `key` back once its request has its answer.
    func release(_ key: String) {
        _ = held.withLock { $0.remove(key) }
    }
}
