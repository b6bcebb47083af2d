import Foundation
import Testing

@testable import ParleyHTTP

@Suite(.serialized, .timeLimit(.minutes(10))) struct TLSTests {
    /// A throwaway self-signed certificate made with the openssl CLI.
    static func makeCertificate() throws -> TLSConfiguration {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = directory.appendingPathComponent("key.pem").path
        let certificate = directory.appendingPathComponent("cert.pem").path
        let result = try run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
                "-out", certificate, "-days", "1", "-subj", "/CN=localhost",
            ])
        #expect(result.status == 0, "openssl: \(result.output)")
        return TLSConfiguration(certificatePath: certificate, privateKeyPath: key)
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = ChildProcess()
        // Under `timeout`, so reading its output to the end and waiting for it have a deadline.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["--kill-after=5", "60", executable] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.runAlone()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func roundTripOverTLSWithKeepAlive() async throws {
        let tls = try Self.makeCertificate()
        let live = try LiveServer.start { $0.tls = tls }
        let url = "https://127.0.0.1:\(live.port)"
        let result = try Self.run(
            "/usr/bin/curl",
            [
                "-sk", "--max-time", "5", "-w", " %{http_code} %{num_connects}\n", "\(url)/healthz", "--next", "-sk",
                "--max-time", "5", "-w", " %{http_code} %{num_connects}\n", "--data", "over tls", "\(url)/echo",
            ])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.first == #"{"status":"ok"} 200 1"#)
        // The second request reuses the first connection (0 new connects).
        #expect(lines.last == "over tls 200 0")
        await live.stop()
    }

    @Test func limitsApplyOverTLS() async throws {
        let tls = try Self.makeCertificate()
        let live = try LiveServer.start {
            $0.tls = tls
            $0.maxHeaderBytes = 256
        }
        let result = try Self.run(
            "/usr/bin/curl",
            [
                "-sk", "--max-time", "5", "-o", "/dev/null", "-w", "%{http_code}", "-H",
                "X-Big: \(String(repeating: "b", count: 400))", "https://127.0.0.1:\(live.port)/healthz",
            ])
        #expect(result.output == "431")
        await live.stop()
    }

    @Test func plainTextClientOnTLSPortIsDroppedNotServed() async throws {
        let live = try LiveServer.start { $0.tls = try? Self.makeCertificate() }
        let client = try TestClient(port: live.port)
        try client.send(.get("/healthz"))
        let received = client.readUntilClosed()
        #expect(received != nil, "the server must close the connection")
        #expect(!String(decoding: received ?? [], as: UTF8.self).contains("HTTP/1.1"))
        await live.stop()
    }

    @Test func missingCertificateIsReported() {
        var configuration = HTTPServerConfiguration(port: 0)
        configuration.tls = TLSConfiguration(certificatePath: "/nonexistent/cert.pem", privateKeyPath: "/nonexistent/k")
        #expect(throws: SocketError.self) {
            _ = try HTTPServer(configuration: configuration, responder: Router(), logger: .init(label: "t"))
        }
    }
}
