public import Foundation
import Synchronization
import Testing

/// What one finished run of a child process produced.
public struct ProcessOutput: Sendable {
    /// The exit status (or the signal number, for a process killed by one).
    public let status: Int32
    /// Everything written to standard output.
    public let stdout: String
    /// Everything written to standard error.
    public let stderr: String
}

/// The built `parley` executable and the package checkout it was built from: the one place
/// every test target finds them, and the one way to run the executable to completion.
public enum ParleyExecutable {
    /// Root of the package checkout (for `Migrations/`, `Flows/`, `deploy/`).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The executable: SwiftPM puts it beside the test bundle (`.build/<config>/parley`).
    public static var url: URL { url(of: "parley") }

    /// Another product of the package (e.g. `parley-bench`), found the same way.
    public static func url(of product: String) -> URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(product)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/\(product)")
    }

    /// Runs `parley arguments` in the package root with `environment` over ours, feeding
    /// `stdin`, and waits at most `timeout` seconds (then records an issue and terminates it).
    /// Both output pipes drain on their own threads, so a chatty command never blocks.
    public static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], timeout: Double = 60
    ) throws -> ProcessOutput {
        let process = ChildProcess()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let error = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.runAlone()
        let drained = drain(output, error)
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            Issue.record("parley \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        let (stdout, stderr) = drained()
        return ProcessOutput(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// Reads both pipes to their end on other threads; the returned function waits for both.
    static func drain(_ output: Pipe, _ error: Pipe) -> () -> (String, String) {
        let group = DispatchGroup()
        let outputData = Mutex(Data())
        let errorData = Mutex(Data())
        DispatchQueue.global().async(group: group) {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            outputData.withLock { $0 = data }
        }
        DispatchQueue.global().async(group: group) {
            let data = error.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
        }
        return {
            group.wait()
            return (
                String(decoding: outputData.withLock { $0 }, as: UTF8.self),
                String(decoding: errorData.withLock { $0 }, as: UTF8.self)
            )
        }
    }
}
