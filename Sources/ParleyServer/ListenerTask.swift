import Synchronization

/// Owns the release-listener task so the service can cancel it on shutdown.
final class ListenerTask: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func set(_ newTask: Task<Void, Never>) {
        task.withLock { old in
            old?.cancel()
            old = newTask
        }
    }

    func cancel() {
        task.withLock { $0?.cancel() }
    }
}
