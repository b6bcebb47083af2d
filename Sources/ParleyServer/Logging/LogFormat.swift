import Logging

/// How `parley serve` writes its log: `text` for people (swift-log's stream format), `json`
/// for log pipelines (``JSONLogHandler``, one object per line).
public enum LogFormat: String, Sendable, CaseIterable {
    case text
    case json

    /// Installs this format for every logger of the process; call once, before any logger
    /// is made (swift-log allows one bootstrap per process).
    public func bootstrap() {
        switch self {
        case .text: LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        case .json: LoggingSystem.bootstrap { JSONLogHandler(label: $0) }
        }
    }
}
