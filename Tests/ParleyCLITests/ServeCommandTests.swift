import Foundation
import Glibc
import Testing

/// `parley serve` end to end: the real binary on port 0, a raw HTTP request, SIGTERM, exit 0.
@Suite struct ServeCommandTests {
    @Test func servesHealthzAndExitsCleanlyOnSIGTERM() throws {
        let process = Process()
        process.executableURL = ParleyBinary.url
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--without-database"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // The first log line names the bound port.
        var log = ""
        let deadline = Date().addingTimeInterval(10)
        while !log.contains("\n") && Date() < deadline {
            log += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        }
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
            let process = Process()
            process.executableURL = ParleyBinary.url
            process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--without-database"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            var log = ""
            let deadline = Date().addingTimeInterval(10)
            while !log.contains("listening on") && Date() < deadline {
                log += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            }
            kill(process.processIdentifier, SIGTERM)
            #expect(Self.exits(process, within: 15), "SIGTERM right after startup was lost")
            #expect(process.terminationStatus == 0)
        }
    }

    /// Waits for `process` to exit for at most `seconds`; false if it is still running.
    static func exits(_ process: Process, within seconds: TimeInterval) -> Bool {
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
