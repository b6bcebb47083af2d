import Foundation
import Synchronization

/// Writes every JSON response the end-to-end suites receive to
/// `$PARLEY_RESPONSE_LOG/responses-<pid>.jsonl` (one line per exchange:
/// method, target, status, content type, body), so `deploy/test` can check
/// them against `/schemas/*.json` with an independent validator (issue 14).
/// Does nothing when the variable is unset.
enum ResponseRecorder {
    private static let file = Mutex<FileHandle?>(open())

    private static func open() -> FileHandle? {
        guard let directory = ProcessInfo.processInfo.environment["PARLEY_RESPONSE_LOG"], !directory.isEmpty else {
            return nil
        }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = "\(directory)/responses-\(getpid()).jsonl"
        guard FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
        return FileHandle(forWritingAtPath: path)
    }

    /// Records one exchange whose body is JSON; other bodies are skipped.
    static func record(method: String, target: String, response: RawResponse) {
        let type = response.header("Content-Type") ?? ""
        guard type.hasPrefix("application/json") || type.hasPrefix("application/problem+json"),
            let body = try? JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed])
        else { return }
        let entry: [String: Any] = [
            "method": method, "target": target, "status": response.status, "contentType": type, "body": body,
        ]
        guard var line = try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys]) else { return }
        line.append(0x0A)
        file.withLock { $0?.write(line) }
    }
}
