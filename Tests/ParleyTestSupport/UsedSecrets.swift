import Foundation
import ParleyCore
import Synchronization

/// Every token, session id and answer value the end-to-end suites send or receive, written to
/// `$PARLEY_SERVER_LOGS/secrets-<pid>.tsv` (`kind<TAB>value` per line), so `deploy/test` can grep
/// every server's log for each after the run (issue 18: nothing personal in logs). The values are
/// test data, never real secrets. Does nothing when the variable is unset.
public enum UsedSecrets {
    /// Shorter answers ("holiday", "Parley", a digit) are option values and words a log may
    /// rightly hold (a step id, the product's name); every personal answer the suites send is longer.
    public static let minimumAnswerLength = 8
    /// Real tokens and session ids are longer; shorter ones are made-up ids of tests ("nope", "x1").
    public static let minimumIdLength = 16

    private struct State {
        var file: FileHandle?
        /// What problem documents said (title, detail, error messages): they are grepped like logs.
        var problems: FileHandle?
        var seen: Set<String> = []
    }

    private static let state = Mutex(State(file: open("secrets", "tsv"), problems: open("problems", "log")))

    private static func open(_ name: String, _ suffix: String) -> FileHandle? {
        guard let directory = ServerLogs.directory else { return nil }
        let path = "\(directory)/\(name)-\(getpid()).\(suffix)"
        guard FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
        return FileHandle(forWritingAtPath: path)
    }

    /// Records one value of a kind: `token`, `session`, `answer`, or `canary` (an `X-Request-Id`,
    /// which the access log must show: proof that the grep reads the logs the requests made).
    public static func record(_ kind: String, _ value: String) {
        let minimum = kind == "answer" ? minimumAnswerLength : kind == "canary" ? 8 : minimumIdLength
        guard value.unicodeScalars.count >= minimum, !value.contains("\n"), !value.contains("\t") else { return }
        state.withLock { state in
            guard let file = state.file, state.seen.insert(value).inserted else { return }
            file.write(Data("\(kind)\t\(value)\n".utf8))
        }
    }

    /// Keeps the words of a problem document a person reads, never its snapshot (which rightly
    /// carries the client's own answers back to it).
    static func record(problem response: RawResponse) {
        guard response.isProblem else { return }
        let json = response.json
        var words = [json["title"]?.stringValue, json["detail"]?.stringValue].compactMap { $0 }
        for error in json["errors"]?.arrayValue ?? [] { words += [error["message"]?.stringValue].compactMap { $0 } }
        let line = words.joined(separator: " | ").replacingOccurrences(of: "\n", with: " ")
        state.withLock { $0.problems?.write(Data("\(response.status) \(line)\n".utf8)) }
    }

    /// Records what one exchange carried: the bearer token, the session id in the path or the
    /// response, and every answer in the request body.
    static func record(target: String, headers: [(String, String)], body: [UInt8]?, response: RawResponse) {
        guard ServerLogs.directory != nil else { return }
        for (name, value) in headers {
            switch name.lowercased() {
            case "authorization":
                record("token", value.split(separator: " ", maxSplits: 1).last.map(String.init) ?? value)
            case "x-request-id" where value.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }:
                record("canary", value)
            default: break
            }
        }
        record(problem: response)
        let prefix = "/v1/sessions/"
        if target.hasPrefix(prefix), let id = target.dropFirst(prefix.count).split(separator: "/").first {
            record("session", String(id.split(separator: "?").first ?? id))
        }
        if let session = response.json["session"]?.stringValue { record("session", session) }
        if let body, let answers = (try? JSONParser.parse(body))?["answers"], case .object(let object) = answers {
            for member in object {
                guard let value = member.value.stringValue, value.unicodeScalars.count >= minimumAnswerLength else {
                    continue
                }
                record("answer", value)
            }
        }
    }
}
