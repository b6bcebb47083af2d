import Foundation
import Glibc
import ParleyTestSupport
import Testing

/// `parley serve` end to end: the real binary on port 0, a raw HTTP request, SIGTERM, exit 0.
@Suite(.timeLimit(.minutes(10))) struct ServeCommandTests {
    @Test func servesHealthzAndExitsCleanlyOnSIGTERM() throws {
        let (process, logFile) = try Self.startServer()
        defer { Self.stop(process, logFile) }

        // The first log line names the bound port.
        let log = Self.log(logFile, of: process, containing: "\n", within: 10)
        let firstLine = log.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.contains("listening on 127.0.0.1:"), "first line: \(firstLine)")
        let port = Int(firstLine.split(separator: ":").last ?? "") ?? 0
        #expect(port > 0)

        let response = try Self.get("/healthz", port: port)
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(response.hasSuffix("\r\n\r\n{\"status\":\"ok\"}"))

        kill(process.processIdentifier, SIGTERM)
        #expect(Self.exits(process, within: 15), "parley serve did not stop after SIGTERM")
        #expect(process.terminationStatus == 0)
    }

    /// A SIGTERM sent the moment the port is announced must not be lost (the handler is armed
    /// before the server starts), or the process would run forever.
    @Test func sigtermRightAfterStartupIsNeverLost() throws {
        for _ in 0..<5 {
            let (process, logFile) = try Self.startServer()
            defer { Self.stop(process, logFile) }
            let log = Self.log(logFile, of: process, containing: "listening on", within: 10)
            #expect(log.contains("listening on"), "the server never announced its port: \(log)")
            kill(process.processIdentifier, SIGTERM)
            #expect(Self.exits(process, within: 15), "SIGTERM right after startup was lost")
            #expect(process.terminationStatus == 0)
        }
    }

    /// `parley serve` on port 0 without a database, its output going to a file: a file never
    /// fills up and blocks the server, and reading it never blocks the test (a pipe's
    /// `availableData` waits until the child writes, which may be never).
    static func startServer() throws -> (ChildProcess, URL) {
        let logFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-serve-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        defer { try? log.close() }
        let process = ChildProcess()
        process.executableURL = ParleyBinary.url
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--without-database"]
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.runAlone()
        return (process, logFile)
    }

    /// What `process` logged to `file`, once it contains `text`, or when `seconds` have passed or
    /// the process has exited (then the test's expectations say what was missing).
    static func log(_ file: URL, of process: ChildProcess, containing text: String, within seconds: TimeInterval)
        -> String
    {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let running = process.isRunning
            let log = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if log.contains(text) || !running || Date() >= deadline { return log }
            usleep(20_000)
        }
    }

    /// Kills a server the test did not stop (SIGKILL cannot be ignored, so the wait ends) and
    /// removes its log.
    static func stop(_ process: ChildProcess, _ logFile: URL) {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: logFile)
    }

    /// Waits for `process` to exit for at most `seconds`; false if it is still running.
    static func exits(_ process: ChildProcess, within seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard !process.isRunning else { return false }
        process.waitUntilExit()
        return true
    }

    @Test func tlsOptionsMustComeTogether() throws {
        let result = try ParleyBinary.run(["serve", "--tls-cert", "/tmp/cert.pem"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--tls-cert and --tls-key must be given together."))
    }

    @Test func sessionCacheLimitsAreChecked() throws {
        for arguments in [
            ["--session-cache", "0"], ["--session-cache", "1000001"], ["--session-cache-mb", "0"],
            ["--session-cache-mb", "65537"],
        ] {
            let result = try ParleyBinary.run(["serve"] + arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(
                result.stderr.contains("--session-cache must be between 1 and 1,000,000"), "\(arguments): \(result)")
        }
    }

    /// One request over a raw socket with `Connection: close`; returns everything received.
    static func get(_ path: String, port: Int) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return "" }
        // A server that never answers or never closes fails the test after 10 s instead of hanging it.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET \(path) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: received, as: UTF8.self)
    }
}
