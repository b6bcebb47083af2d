public import Foundation
import Testing

/// The built `parley` executable started in the background, so several can run at once
/// (migrations racing each other); ``wait()`` collects what it wrote.
public struct ParleyProcess {
    /// What one run produced.
    public typealias Result = ProcessOutput

    /// The running process.
    public let process: ChildProcess
    private let drained: () -> (String, String)

    /// The executable beside the test bundle (`.build/<config>/parley`).
    public static var executable: URL { ParleyExecutable.url }

    /// Starts `parley arguments` (or another product of the package, `product`) in the package
    /// root, with `environment` overriding ours.
    public static func start(
        _ arguments: [String], product: String = "parley", environment: [String: String] = [:]
    ) throws -> ParleyProcess {
        let process = ChildProcess()
        process.executableURL = ParleyExecutable.url(of: product)
        process.arguments = arguments
        process.currentDirectoryURL = ParleyExecutable.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.runAlone()
        return ParleyProcess(process: process, drained: ParleyExecutable.drain(output, error))
    }

    /// Waits for the process to exit (at most `seconds`, then kills it and records an issue: a
    /// hang guard) and collects its output.
    public func wait(seconds: Double = 300) -> Result {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            Issue.record("\(process.executableURL?.lastPathComponent ?? "a process") ran over \(seconds) s; killing it")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        let (stdout, stderr) = drained()
        return Result(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }
}
