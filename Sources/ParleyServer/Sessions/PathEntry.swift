import ParleyCore

/// One confirmed step of a session's path and the answers that confirmed it.
struct PathEntry: Sendable, Equatable {
    /// The step's id.
    let step: String
    /// The answers given on that step (this step's fields only).
    let answers: Answers

    /// `{"answers": {…}, "step": "…"}`, as stored in `sessions.path` and `forward`.
    var json: JSONValue { ["step": .string(step), "answers": answers.json] }

    /// Reads the stored form; `nil` for anything else (a tampered row is refused by the caller).
    init?(json: JSONValue) {
        guard let step = json["step"]?.stringValue, let answersValue = json["answers"],
            let answers = try? Answers(answersValue)
        else { return nil }
        self.init(step: step, answers: answers)
    }

    init(step: String, answers: Answers) {
        self.step = step
        self.answers = answers
    }

    /// A stored array of entries; `nil` when any element is malformed.
    static func list(_ json: JSONValue) -> [PathEntry]? {
        guard let items = json.arrayValue else { return nil }
        var entries: [PathEntry] = []
        for item in items {
            guard let entry = PathEntry(json: item) else { return nil }
            entries.append(entry)
        }
        return entries
    }

    /// Every answer of `entries` as completion's replay reads them (a step visited again replaces
    /// its fields): the context a step is validated in.
    static func merged(_ entries: some Collection<PathEntry>, in flow: Flow) -> Answers {
        PathReplay(flow: flow).answers(along: entries.map { (step: $0.step, answers: $0.answers) })
    }
}
