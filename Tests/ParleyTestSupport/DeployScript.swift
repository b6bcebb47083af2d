import Foundation

/// Runs a script of `deploy/` (postgres, proxies) and returns its standard output.
///
/// Output goes through files, not pipes: the daemons such a script starts live on, and must
/// not be able to hold a pipe of ours open.
public enum DeployScript {
    /// A script that exited non-zero, with what it wrote to standard error.
    public struct Failed: Error, CustomStringConvertible {
        public let description: String

        /// A failure saying `description`.
        public init(description: String) { self.description = description }
    }

    /// Runs `deploy/<name> arguments…` to completion, with `environment` added to this process's.
    @discardableResult
    public static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> String
    {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "parley-script-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputURL = scratch.appendingPathComponent("stdout")
        let errorURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        let process = ChildProcess()
        process.executableURL = ParleyExecutable.packageRoot.appendingPathComponent("deploy/\(name)")
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.runAlone()
        process.waitUntilExit()
        try output.close()
        try error.close()
        guard process.terminationStatus == 0 else {
            throw Failed(
                description: "deploy/\(name) \(arguments.joined(separator: " ")) failed: "
                    + ((try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""))
        }
        return try String(contentsOf: outputURL, encoding: .utf8)
    }
}
