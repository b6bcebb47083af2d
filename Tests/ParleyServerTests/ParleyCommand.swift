import Foundation
import Synchronization
import Testing

/// Runs the built `parley` executable to completion (token, key, keygen, publish…),
/// with the test database in its environment.
enum ParleyCommand {
    /// What one run produced.
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `parley arguments`, waiting at most `timeout` seconds.
    static func run(_ arguments: [String], timeout: Double = 30) throws -> Output {
        let process = Process()
        process.executableURL = ServerProcess.executable
        process.arguments = arguments
        process.currentDirectoryURL = TestEnvironment.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["PARLEY_DATABASE_URL"] = try TestEnvironment.databaseURL()
        if environment["PARLEY_DATA_KEY_FILE"] == nil {
            environment["PARLEY_DATA_KEY_FILE"] = TestEnvironment.dataKeyFile
        }
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        // Drain both pipes on other threads so a chatty command never blocks on a full pipe.
        let collected = DispatchGroup()
        let outputData = Mutex(Data())
        let errorData = Mutex(Data())
        DispatchQueue.global().async(group: collected) {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            outputData.withLock { $0 = data }
        }
        DispatchQueue.global().async(group: collected) {
            let data = error.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
        }
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            Issue.record("parley \(arguments.first ?? "") did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        collected.wait()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outputData.withLock { $0 }, as: UTF8.self),
            stderr: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }
}
