import Synchronization

/// A value the first caller computes and every later caller of the test process shares, whether
/// it arrives while the work runs or after (migrating the test database, making its template).
/// A failure is not kept: the next caller tries again and reports its own failure.
final class OncePerProcess<Value: Sendable>: Sendable {
    private let current = Mutex<Task<Value, any Error>?>(nil)
    private let make: @Sendable () async throws -> Value

    init(_ make: @escaping @Sendable () async throws -> Value) { self.make = make }

    /// The value, computed now when no caller has (or the last attempt failed).
    func value() async throws -> Value {
        let attempt = current.withLock { current in
            if let current { return current }
            let started = Task { try await make() }
            current = started
            return started
        }
        do {
            return try await attempt.value
        } catch {
            current.withLock { current in if current == attempt { current = nil } }
            throw error
        }
    }
}
