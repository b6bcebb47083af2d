public import Foundation

/// One test child started at a time. On Linux, Foundation's `Process.run()` learns that a child
/// exited when the end of a socket pair it hands the child closes; it makes the pair without
/// close-on-exec, so a child spawned meanwhile from another thread (whose list of descriptors to
/// close was taken before the pair existed) inherits that end too. The first child's exit then
/// goes unseen until the second one exits: `isRunning` stays true, `waitUntilExit()` blocks, and
/// the harness reported "parley serve ignored SIGTERM for 10 s" for a server that had logged
/// `stopped` and exited. Parallel suites that start servers at once (DrillScenarioTests beside
/// DataKeyRotationScenarioTests) hit it under load; serialized spawns cannot.
public enum ChildSpawning {
    private static let lock = NSLock()

    /// Runs `body` (which spawns) while no other test spawns.
    public static func alone<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

extension Process {
    /// `run()`, never overlapping another test's spawn (see ``ChildSpawning``).
    public func runAlone() throws {
        try ChildSpawning.alone { try run() }
    }
}
