extension JSONCalls {
    /// `validate(screen, answers, pathAnswers?, options?)`: the rule interpreter's outcome as
    /// `parley validate` prints it, `{"deferred", "errors", "valid"}` in canonical JSON.
    ///
    /// `screen` is a screen document, or a flow document with `options.step`; `path` holds the
    /// answers of earlier steps of the session's path (docs/sessions.md); `options.mode` is
    /// `"server"` (the default, as the server checks) or `"client"` (unknown rules deferred).
    public static func validate(screen: [UInt8], answers: [UInt8], path: [UInt8]?, options: [UInt8]?) -> [UInt8] {
        do throws(CallProblem) {
            let settings = try Self.options(options, "options")
            let mode = try Self.mode(settings["mode"])
            let step: String?
            switch settings["step"] {
            case nil, .null: step = nil
            case .string(let name): step = name
            default: throw CallProblem("options.step must be a string")
            }
            let document = try parse(screen, "screen")
            let validated = try Screen.validatable(
                from: document, step: step, source: "screen", stepHint: "with options.step")
            let given = try Self.answers(answers, "answers")
            let earlier = try path.map { bytes throws(CallProblem) in try Self.answers(bytes, "pathAnswers") }
            let outcome = RuleInterpreter(mode: mode).validate(
                screen: validated, answers: given, context: earlier ?? Answers())
            return CanonicalJSON.encode(outcome.json)
        } catch {
            return failure(error.description)
        }
    }

    /// An answers object (`null` and empty text: no answers).
    static func answers(_ bytes: [UInt8], _ name: String) throws(CallProblem) -> Answers {
        if bytes.isEmpty { return Answers() }
        let value = try parse(bytes, name)
        if case .null = value { return Answers() }
        do {
            return try Answers(value)
        } catch {
            throw CallProblem("\(name): \(error.description)")
        }
    }
}
