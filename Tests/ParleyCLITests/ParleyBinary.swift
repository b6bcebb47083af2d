import Foundation
import Testing

/// Runs the built `parley` executable, the way a user or CI script would.
///
/// SwiftPM puts the executable beside the test bundle (`.build/<config>/`), so
/// tests exercise the real binary: exit codes, stdout and stderr.
struct ParleyBinary {
    /// What one run produced.
    struct Result {
        /// The process exit status.
        let status: Int32
        /// Everything written to standard output.
        let stdout: String
        /// Everything written to standard error.
        let stderr: String
    }

    /// The executable's location, found next to the running test bundle.
    static var url: URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("parley")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("parley")
    }

    /// Root of the package checkout (for fixtures such as `Flows/`).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `parley` with arguments and optional standard input, waiting at most `timeout` seconds.
    static func run(_ arguments: [String], stdin: String? = nil, timeout: TimeInterval = 60) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        let output = Pipe()
        let error = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            process.terminate()
            Issue.record("parley \(arguments.joined(separator: " ")) did not finish within \(timeout)s")
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// Writes `contents` to a fresh temporary file and returns its path.
    static func temporaryFile(_ contents: String, name: String = "input.json") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "parley-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: file)
        return file.path
    }
}

@Suite struct ParleyBinaryTests {
    @Test func helpListsEveryCommand() throws {
        let result = try ParleyBinary.run(["--help"])
        #expect(result.status == 0)
        for command in ["lint", "validate", "render", "bundle", "serve", "migrate"] {
            #expect(result.stdout.contains(command), "--help should list \(command)")
        }
    }
}
