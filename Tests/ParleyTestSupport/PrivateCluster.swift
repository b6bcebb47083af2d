import Foundation
import Testing

/// A cluster of its own for tests that restart Postgres, so other suites running in
/// parallel on the shared test database are not disturbed. Driven by `deploy/postgres`.
public struct PrivateCluster {
    /// The cluster's data directory.
    public let directory: String
    /// Its connection URL.
    public let url: String

    /// Creates and starts a cluster in a fresh temporary directory.
    public static func start() throws -> PrivateCluster {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-pg-\(UUID().uuidString.prefix(8))").path
        let url = try script(["start", directory]).trimmingCharacters(in: .whitespacesAndNewlines)
        return PrivateCluster(directory: directory, url: url)
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
