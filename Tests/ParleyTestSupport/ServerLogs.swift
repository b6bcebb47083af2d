import Foundation

/// The directory every server of the test run logs into (`$PARLEY_SERVER_LOGS`, set by
/// `deploy/test`); nil when unset (logs then go to temporary files, deleted after each test).
public enum ServerLogs {
    /// The run's log directory, created on first use.
    public static let directory: String? = {
        guard let directory = ProcessInfo.processInfo.environment["PARLEY_SERVER_LOGS"], !directory.isEmpty else {
            return nil
        }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }()

    /// Keeps a server's `/metrics` text beside the logs: metric labels are grepped like log lines.
    public static func keep(metrics: String) {
        guard let directory else { return }
        let path = "\(directory)/metrics-\(UUID().uuidString).log"
        _ = FileManager.default.createFile(atPath: path, contents: Data(metrics.utf8))
    }
}
