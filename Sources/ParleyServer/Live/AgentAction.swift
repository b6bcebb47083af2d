import ParleyCore
import ParleyHTTP

/// What an agent does in a session (`POST /v1/sessions/{id}/events`, DESIGN.md "Live
/// sessions"): say something, or move the session to a step of its pinned version.
enum AgentAction: Sendable {
    /// Appends `{"rev", "from", "text", "at"}` to the session's `messages`.
    case say(text: String, from: String)
    /// Moves the session to `step`; the agent's word is authoritative, the path records it.
    case goto(step: String)

    /// Reads `{"say": {"text", "from"?}}` or `{"goto": "<step>"}` (plus an optional `rev`),
    /// within the configured lengths.
    init(_ body: JSONObject, configuration: ServiceConfiguration) throws(HTTPError) {
        for name in body.keys where !["say", "goto", "rev"].contains(name) {
            throw ServiceProblem.malformedBody("unknown member \"\(name)\": an event is {\"say\": …} or {\"goto\": …}")
        }
        switch (body["say"], body["goto"]) {
        case (.some(let say), nil):
            guard case .object(let message) = say, case .string(let text) = message["text"] else {
                throw ServiceProblem.malformedBody("\"say\" must be an object with a string \"text\"")
            }
            guard (1...configuration.maxMessageLength).contains(text.unicodeScalars.count) else {
                throw ServiceProblem.malformedBody(
                    "\"say.text\" must be 1 to \(configuration.maxMessageLength) characters, found "
                        + "\(text.unicodeScalars.count)")
            }
            var from = "agent"
            switch message["from"] {
            case nil, .null: break
            case .string(let name) where (1...configuration.maxMessageSenderLength).contains(name.unicodeScalars.count):
                from = name
            default:
                throw ServiceProblem.malformedBody(
                    "\"say.from\" must be a string of 1 to \(configuration.maxMessageSenderLength) characters")
            }
            self = .say(text: text, from: from)
        case (nil, .some(let goto)):
            guard case .string(let step) = goto, RequestInput.isIdentifier(step) else {
                throw ServiceProblem.malformedBody(
                    "\"goto\" must be the id of a step (1 to \(RequestInput.maximumIdentifierLength) characters)")
            }
            self = .goto(step: step)
        default:
            throw ServiceProblem.malformedBody("an event has exactly one of \"say\" and \"goto\"")
        }
    }

    /// The operation's name in the session log and in idempotency fingerprints.
    var kind: String {
        switch self {
        case .say: "say"
        case .goto: "goto"
        }
    }
}
