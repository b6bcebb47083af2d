import Foundation

/// One test child started at a time. Foundation's `Process.run()` once leaked a socket pair
/// without close-on-exec into children spawned meanwhile from other threads, so a child's exit
/// went unseen until the other child exited. ``ChildProcess`` closes every descriptor from 3 on
/// in the child, so that cannot happen; spawns stay serialized anyway, so that a child never
/// inherits a descriptor a parallel suite opens while setting up its own child's output (a
/// file, a pipe).
public enum ChildSpawning {
    private static let lock = NSLock()

    /// Runs `body` (which spawns) while no other test spawns.
    public static func alone<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
