import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

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

    /// Records one exchange whose body is JSON; other bodies (and empty ones: HEAD, 304) are
    /// skipped. The body is written as received, not parsed and serialized again (that was a
    /// twentieth of the whole suite's CPU time): a body its JSON media type does not hold then
    /// fails the check that reads the lines, instead of being left out.
    static func record(method: String, target: String, response: RawResponse) {
        guard isRecording else { return }
        let type = response.header("Content-Type") ?? ""
        guard type.hasPrefix("application/json") || type.hasPrefix("application/problem+json"),
            !response.body.isEmpty,
            var line = try? JSONSerialization.data(
                withJSONObject: ["method": method, "target": target, "status": response.status, "contentType": type],
                options: [.sortedKeys]),
            line.last == UInt8(ascii: "}")
        else { return }
        line.removeLast()
        line.append(contentsOf: Array(#","body":"#.utf8))
        // A line per exchange: a line break in JSON text is whitespace (strings escape theirs).
        // Canonical JSON has none: the body goes in whole unless it holds a line break (a byte
        // at a time through a closure was most of this recorder's cost in a debug build).
        if Self.hasLineBreak(response.body) {
            line.append(contentsOf: response.body.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 })
        } else {
            line.append(contentsOf: response.body)
        }
        line.append(contentsOf: [UInt8(ascii: "}"), 0x0A])
        file.withLock { $0?.write(line) }
    }

    private static let isRecording = file.withLock { $0 != nil }

    /// Whether `bytes` hold a line feed or a carriage return (`memchr`).
    private static func hasLineBreak(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return false }
            return memchr(base, 0x0A, raw.count) != nil || memchr(base, 0x0D, raw.count) != nil
        }
    }
}
