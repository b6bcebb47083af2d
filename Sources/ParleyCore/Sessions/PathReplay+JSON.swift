extension PathReplay {
    /// A path from its wire form, `[{"step": "…", "answers": {…}}, …]` (the replay conformance
    /// vectors and the harness protocol, Tests/Conformance/README.md).
    public static func path(json: JSONValue) throws(ModelDecodingError) -> [Entry] {
        guard case .array(let elements) = json else {
            throw .wrongType(.root, "a path must be an array of {\"step\", \"answers\"} objects")
        }
        var path: [Entry] = []
        for (index, element) in elements.enumerated() {
            let pointer = JSONPointer.root.appending(index)
            let reader = try JSONReader(element, at: pointer, what: "a path entry")
            let step = try reader.string("step")
            do {
                path.append((step, try Answers(reader.value("answers") ?? .object(JSONObject()))))
            } catch {
                throw .wrongType(pointer.appending("answers"), error.message)
            }
        }
        return path
    }
}

extension PathReplay.Outcome {
    /// The wire form: `{"completed": true, "answers": {…}}` or
    /// `{"completed": false, "refused": {"index", "step", "reason", "errors"?}}`.
    public var json: JSONValue {
        switch self {
        case .completed(let answers):
            return ["completed": true, "answers": answers.json]
        case .refused(let refusal):
            var object = JSONObject()
            object["index"] = .number(JSONNumber(refusal.index))
            object["step"] = refusal.step.map(JSONValue.string) ?? .null
            object["reason"] = .string(refusal.reason.code)
            if case .invalidAnswers(let errors) = refusal.reason { object["errors"] = .array(errors.map { $0.json }) }
            return ["completed": false, "refused": .object(object)]
        }
    }
}

extension PathRefusal.Reason {
    /// The stable name of the reason on the wire (the case name).
    public var code: String {
        switch self {
        case .emptyPath: return "emptyPath"
        case .notAtStart: return "notAtStart"
        case .unknownStep: return "unknownStep"
        case .invalidAnswers: return "invalidAnswers"
        case .wrongTransition: return "wrongTransition"
        case .notTerminal: return "notTerminal"
        }
    }
}
