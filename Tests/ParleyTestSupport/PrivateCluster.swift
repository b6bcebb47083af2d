import Foundation
import Synchronization
import Testing

/// A cluster of its own for tests that restart Postgres, so other suites running in
/// parallel on the shared test database are not disturbed. Driven by `deploy/postgres`.
public struct PrivateCluster {
    /// The cluster's data directory.
    public let directory: String
    /// Its connection URL.
    public let url: String

    /// Creates and starts a cluster in a fresh temporary directory: a copy of this process's
    /// stopped template cluster (``template()``), which costs a fraction of an initdb.
    public static func start() throws -> PrivateCluster {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-pg-\(UUID().uuidString.prefix(8))").path
        let url = try DeployScript.run(
            "postgres", ["start", directory], environment: ["PARLEY_POSTGRES_TEMPLATE": try template()]
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        return PrivateCluster(directory: directory, url: url)
    }

    /// The directory of a cluster made once per test process (initdb, the `parley` database) and
    /// stopped, which `deploy/postgres start` copies (PARLEY_POSTGRES_TEMPLATE); deleted when the
    /// process exits. A failure is not kept: the next caller tries again.
    static func template() throws -> String {
        try templateDirectory.withLock { directory in
            if let directory { return directory }
            let made = FileManager.default.temporaryDirectory.appendingPathComponent("parley-pg-template-\(getpid())")
                .path
            try script(["start", made])
            try script(["stop", made])
            directory = made
            atexit { PrivateCluster.removeTemplate() }
            return made
        }
    }

    private static let templateDirectory = Mutex<String?>(nil)

    private static func removeTemplate() {
        guard let directory = templateDirectory.withLock({ $0 }) else { return }
        let root = (try? String(contentsOfFile: "\(directory)/cluster-root", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if let root { try? FileManager.default.removeItem(atPath: root) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Fast restart on the same port.
    public func restart() throws { _ = try Self.script(["restart", directory]) }

    /// Fast shutdown.
    public func stop() throws { _ = try Self.script(["stop", directory]) }

    /// Starts it again after ``stop()``.
    public func startAgain() throws { _ = try Self.script(["start", directory]) }

    /// Stops the cluster and deletes its directory.
    public func destroy() {
        _ = try? Self.script(["stop", directory])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A `deploy/` script that exited non-zero.
    public typealias ScriptFailed = DeployScript.Failed

    /// Runs `deploy/postgres` with `arguments` and returns its standard output.
    @discardableResult
    public static func script(_ arguments: [String]) throws -> String {
        try DeployScript.run("postgres", arguments)
    }
}
