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
    /// unreadable. `context` (optional) holds the answers of earlier steps of the path.
    static func respond(to line: String) -> JSONValue {
        do {
            let request = try JSONParser.parse(line)
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
}
