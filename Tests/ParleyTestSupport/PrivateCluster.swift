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

    public struct ScriptFailed: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `deploy/postgres` with `arguments` and returns its standard output.
    ///
    /// Output goes through files, not pipes: the server it starts lives on, and must not be
    /// able to hold a pipe of ours open.
    @discardableResult
    public static func script(_ arguments: [String]) throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("parley-pgctl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputURL = scratch.appendingPathComponent("stdout")
        let errorURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        let process = Process()
        process.executableURL = TestDatabase.packageRoot.appendingPathComponent("deploy/postgres")
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try output.close()
        try error.close()
        guard process.terminationStatus == 0 else {
            throw ScriptFailed(
                description: "deploy/postgres \(arguments.joined(separator: " ")) failed: "
                    + ((try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""))
        }
        return try String(contentsOf: outputURL, encoding: .utf8)
    }
}
