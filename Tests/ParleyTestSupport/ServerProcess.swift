public import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real `parley serve --port 0` child process on the test database.
///
/// The executable sits beside the test bundle (`.build/<config>/parley`, as in
/// ParleyCLITests' ParleyBinary). Its log goes to a file, which is read for the
/// first `listening on 127.0.0.1:PORT` line; a file (unlike a pipe) never fills
/// up and blocks the server. It is started under `timeout`, so even a test
/// process that dies before ``stop()`` runs leaves no server behind for long.
public final class ServerProcess: Sendable {
    /// The port it listens on.
    public let port: UInt16
    private let process: Mutex<ChildProcess?>
    private let logFile: URL

    /// Longest a server may live: a watchdog for crashed test runs.
    public static let watchdogSeconds = 180

    /// The executable beside the running test bundle.
    public static var executable: URL { ParleyExecutable.url }

    /// Starts a server and waits (at most `timeout` seconds) for its listening line.
    public init(
        arguments extra: [String] = [], databaseURL: String? = nil,
        environment extraEnvironment: [String: String] = [:],
        timeout: Double = 20
    ) throws {
        let url = try databaseURL ?? TestEnvironment.databaseURL()
        // In the run's log directory when there is one: `deploy/test` greps every server's log
        // for the secrets the suites used (UsedSecrets), so those logs are kept.
        logFile = URL(fileURLWithPath: ServerLogs.directory ?? FileManager.default.temporaryDirectory.path)
            .appendingPathComponent("parley-serve-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments =
            [
                "--signal=TERM", "--kill-after=5", String(Self.watchdogSeconds), Self.executable.path, "serve",
                "--host", "127.0.0.1", "--port", "0", "--threads", "2", "--database-connections", "4",
                "--database-connect-timeout", "5",
                "--migrations", TestEnvironment.migrations.path,
            ] + extra
        process.currentDirectoryURL = TestEnvironment.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["PARLEY_DATABASE_URL"] = url
        if environment["PARLEY_DATA_KEY_FILE"] == nil {
            environment["PARLEY_DATA_KEY_FILE"] = TestEnvironment.dataKeyFile
        }
        environment.merge(extraEnvironment) { $1 }
        process.environment = environment
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.runAlone()
        try? log.close()
        self.process = Mutex(process)
        let deadline = Date().addingTimeInterval(timeout)
        var found: UInt16?
        while found == nil, Date() < deadline, process.isRunning {
            found = Self.listeningPort(in: (try? String(contentsOf: logFile, encoding: .utf8)) ?? "")
            if found == nil { usleep(20_000) }
        }
        found = found ?? Self.listeningPort(in: (try? String(contentsOf: logFile, encoding: .utf8)) ?? "")
        guard let found else {
            let output = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            process.terminate()
            process.waitUntilExit()
            throw StartFailure(log: output)
        }
        port = found
    }

    deinit {
        stop()
        if ServerLogs.directory == nil { try? FileManager.default.removeItem(at: logFile) }
    }

    /// What the server logged so far.
    public var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// SIGTERM, then waits for the exit and returns its status (nil when already stopped);
    /// safe to call twice. The log is deleted unless `keepingLog` (then it goes with this object).
    @discardableResult
    public func stop(keepingLog: Bool = false) -> Int32? {
        guard
            let process = self.process.withLock({ current -> ChildProcess? in
                defer { current = nil }
                return current
            })
        else { return nil }
        // The test runner's children inherit a signal mask in which `timeout` may not see
        // SIGTERM, so the server (which reads signals through its own mask) is told directly.
        let server = Self.childPid(of: process.processIdentifier)
        if let server { kill(server, SIGTERM) } else if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            Issue.record("parley serve ignored SIGTERM for 10 s; killing it")
            if let server { kill(server, SIGKILL) }
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        if !keepingLog, ServerLogs.directory == nil { try? FileManager.default.removeItem(at: logFile) }
        return process.terminationStatus
    }

    /// SIGKILL, as a crash would: no shutdown, no flush; waits for the exit and keeps the log.
    public func crash() {
        guard
            let process = self.process.withLock({ current -> ChildProcess? in
                defer { current = nil }
                return current
            })
        else { return }
        if let server = Self.childPid(of: process.processIdentifier) { kill(server, SIGKILL) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The server's own process id (the child of `timeout`), for reading its /proc entries.
    public var serverPid: Int32? {
        process.withLock { $0.flatMap { Self.childPid(of: $0.processIdentifier) } }
    }

    /// The first child of `pid` (the server under `timeout`), from procfs.
    private static func childPid(of pid: Int32) -> Int32? {
        let path = "/proc/\(pid)/task/\(pid)/children"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Int32($0) }
    }

    /// The port of the first `listening on HOST:PORT` line.
    public static func listeningPort(in log: String) -> UInt16? {
        for line in log.split(separator: "\n") {
            guard let range = line.range(of: "listening on ") else { continue }
            // HOST:PORT ends at the first character that is not part of it (a space in the
            // text log, a quote in the JSON log).
            let address = line[range.upperBound...].prefix { $0.isLetter || $0.isNumber || ".:[]".contains($0) }
            guard let colon = address.lastIndex(of: ":") else { continue }
            return UInt16(address[address.index(after: colon)...])
        }
        return nil
    }

    public struct StartFailure: Error, CustomStringConvertible {
        /// What the server logged before giving up.
        public let log: String
        public var description: String { "parley serve did not report its port; its log:\n\(log)" }
    }
}
