import ParleyCore

/// The stdin/stdout conformance harness (Tests/Conformance/README.md).
enum ConformanceHarness {
    /// One request per input line; one canonical JSON response per output line.
    static func run() {
        while let line = readLine(strippingNewline: true) {
            if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
            print(CanonicalJSON.string(respond(to: line)))
        }
    }

    /// `{"screen":…,"answers":…,"context":…,"mode":…}` → the outcome, or `{"error": reason}` when
    /// unreadable; expression requests (`expression`, `predicate`, `template`, `evaluate`) are
    /// answered by ParleyCore's ``ExpressionHarness``. `context` (optional) holds the answers of earlier steps of the path.
    static func respond(to line: String) -> JSONValue {
        do {
            let request = try JSONParser.parse(line)
            if let response = ExpressionHarness.response(to: request) { return response }
            if let path = request["path"] { return try replay(flow: request["flow"], path: path) }
            guard let screenJSON = request["screen"] else { return ["error": "the request has no \"screen\""] }
            let screen = try ValidationInput.screen(
                from: screenJSON, step: request["step"]?.stringValue, source: "screen")
            let answers = try Answers(request["answers"] ?? .object(JSONObject()))
            let context = try request["context"].flatMap { $0.isNull ? nil : try Answers($0) } ?? Answers()
            let mode: RuleInterpreter.Mode = request["mode"]?.stringValue == "client" ? .client : .server
            return RuleInterpreter(mode: mode).validate(screen: screen, answers: answers, context: context).json
        } catch {
            return ["error": .string("\(error)")]
        }
    }

    /// `{"flow": <flow document>, "path": [{"step", "answers"}…]}` → the replay outcome
    /// (Tests/Conformance/README.md, replay vectors).
    static func replay(flow: JSONValue?, path: JSONValue) throws -> JSONValue {
        guard let flow else { return ["error": "a replay request needs a \"flow\""] }
        return PathReplay(flow: try Flow(json: flow, at: .root)).replay(try PathReplay.path(json: path)).json
    }
}
