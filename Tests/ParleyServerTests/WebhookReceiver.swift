import Foundation
import ParleyCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `Tests/Receivers/webhook_receiver.py`: a real HTTP receiver that verifies every delivery with
/// the `standardwebhooks` PyPI library and logs each request as one JSON line.
final class WebhookReceiver: Sendable {
    /// The port it listens on.
    let port: Int
    private let process: ChildProcess
    private let directory: URL

    /// The Python with `standardwebhooks` (deploy/test installs it into `.build/test-venv`).
    static var python: String {
        if let configured = ProcessInfo.processInfo.environment["PARLEY_TEST_PYTHON"], !configured.isEmpty {
            return configured
        }
        return TestEnvironment.packageRoot.appendingPathComponent(".build/test-venv/bin/python3").path
    }

    /// Starts a receiver answering `statuses` in turn (then 200), holding the first request
    /// `holdFirst` seconds; `port` 0 picks a free one.
    init(port: Int = 0, statuses: [Int] = [], holdFirst: Double = 0) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-hook-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let output = directory.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        try Data().write(to: directory.appendingPathComponent("secret"))
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [
            TestEnvironment.packageRoot.appendingPathComponent("Tests/Receivers/webhook_receiver.py").path,
            "--port", String(port), "--log", directory.appendingPathComponent("log").path,
            "--secret-file", directory.appendingPathComponent("secret").path,
            "--statuses", statuses.map(String.init).joined(separator: ","), "--hold-first", String(holdFirst),
        ]
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.runAlone()
        try? handle.close()
        self.process = process
        let deadline = Date().addingTimeInterval(20)
        var found: Int?
        while found == nil, Date() < deadline, process.isRunning {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            found = text.split(separator: "\n").first { $0.hasPrefix("listening ") }.flatMap { Int($0.dropFirst(10)) }
            if found == nil { usleep(20_000) }
        }
        guard let found else {
            process.terminate()
            throw SessionFixture.Failure(
                description: "the receiver did not start: \((try? String(contentsOf: output, encoding: .utf8)) ?? "")")
        }
        self.port = found
    }

    /// Stops the receiver and removes its directory (its log is read until then).
    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The URL to register.
    var url: String { "http://127.0.0.1:\(port)/hook" }

    /// The secret the receiver verifies with.
    func setSecret(_ secret: String) throws {
        try Data(secret.utf8).write(to: directory.appendingPathComponent("secret"))
    }

    /// Every request logged so far, in arrival order.
    var records: [JSONValue] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8)) }
    }

    /// Waits (hang guard: `timeout` seconds) until at least `count` requests arrived.
    func waitFor(_ count: Int, timeout: Double = 60) async throws -> [JSONValue] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let seen = records
            if seen.count >= count { return seen }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw SessionFixture.Failure(description: "only \(records.count) of \(count) deliveries arrived")
    }

    /// Stops the receiver (SIGKILL: the test runner's signal mask may hide SIGTERM from children)
    /// and waits briefly for it to go; the receiver also exits by itself when its parent does.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(10_000) }
    }
}

extension JSONValue {
    /// A receiver record's `webhook-id`.
    var webhookId: String { self["headers"]?["webhook-id"]?.stringValue ?? "" }
    /// A receiver record's body as JSON.
    var deliveredPayload: JSONValue { (try? JSONParser.parse(Array((self["body"]?.stringValue ?? "").utf8))) ?? .null }
}
