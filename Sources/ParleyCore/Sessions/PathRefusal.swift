/// Why ``PathReplay`` refused a path: which entry broke it and how.
///
/// The description names steps, fields and rules only, never an answer's value, so it can go
/// into a log line (docs/data-protection.md: logs never carry answers).
public struct PathRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong at the entry.
    public enum Reason: Sendable, Equatable {
        /// The path has no entries: nothing was walked.
        case emptyPath
        /// The first entry is not the flow's `start` step.
        case notAtStart(start: String)
        /// The entry names no step of the flow.
        case unknownStep
        /// The entry's answers fail the step's rules (server mode, in the context of earlier steps).
        case invalidAnswers([ValidationError])
        /// The step's `next` chose another step than the one that follows it on the path
        /// (`chosen` is `nil` when no transition matched or the step is terminal).
        case wrongTransition(chosen: String?, following: String)
        /// The path ends on a step that is not terminal (`chosen` is where `next` would go).
        case notTerminal(chosen: String?)
    }

    /// The 0-based position of the entry in the path.
    public let index: Int
    /// The entry's step id as given (`nil` for an empty path).
    public let step: String?
    /// What was wrong.
    public let reason: Reason

    /// Creates a refusal.
    public init(index: Int, step: String?, reason: Reason) {
        self.index = index
        self.step = step
        self.reason = reason
    }

    public var description: String {
        let quote = { (text: String) in "\"\(text)\"" }
        let place = "path entry \(index)" + (step.map { " (step \(quote($0)))" } ?? "")
        switch reason {
        case .emptyPath:
            return "the path is empty"
        case .notAtStart(let start):
            return "\(place) is not the flow's start step \(quote(start))"
        case .unknownStep:
            return "\(place) names no step of the flow"
        case .invalidAnswers(let errors):
            let failures = errors.map { "\(quote($0.field)) \($0.rule)" }.joined(separator: ", ")
            return "\(place) has answers that fail its rules: \(failures)"
        case .wrongTransition(let chosen, let following):
            let went = chosen.map { "goes to \(quote($0))" } ?? "matches no transition"
            return "\(place) \(went), but the path continues with \(quote(following))"
        case .notTerminal(let chosen):
            let went = chosen.map { "; it goes on to \(quote($0))" } ?? ", and no transition matches"
            return "\(place) ends the path but is not terminal\(went)"
        }
    }
}
