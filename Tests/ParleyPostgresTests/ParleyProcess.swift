import Foundation

/// The built `parley` executable run as a child process (as in ParleyCLITests' ParleyBinary),
/// so migrations are tested through the real command, several at once.
struct ParleyProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    let process: Process
    let output: Pipe
    let error: Pipe

    /// The product `name` beside the test bundle (`.build/<config>/parley`).
    static func executable(_ name: String = "parley") -> URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return TestDatabase.packageRoot.appendingPathComponent(".build/debug/\(name)")
    }

    /// Starts `parley arguments` (or another product of the package, `product`) in the package
    /// root, with `environment` overriding ours.
    static func start(
        _ arguments: [String], product: String = "parley", environment: [String: String] = [:]
    ) throws -> ParleyProcess {
        let process = Process()
        process.executableURL = executable(product)
        process.arguments = arguments
        process.currentDirectoryURL = TestDatabase.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return ParleyProcess(process: process, output: output, error: error)
    }

    /// Waits for the process to exit and collects its output.
    func wait() -> Result {
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }
}
