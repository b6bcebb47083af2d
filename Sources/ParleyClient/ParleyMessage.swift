import ParleyCore

/// Something said in a session (docs/live-sessions.md): an agent's `say`, shown beside the screen.
public struct ParleyMessage: Sendable, Equatable {
    /// The rev the message was said at.
    public let rev: Int
    /// Who said it (`agent` unless the agent named itself).
    public let from: String
    /// What was said.
    public let text: String
    /// When (RFC 3339).
    public let at: String

    /// Reads one entry of a snapshot's `messages`; nil when it lacks `rev` or `text`.
    init?(json: JSONValue) {
        guard let rev = json["rev"]?.numberValue?.intValue, let text = json["text"]?.stringValue else { return nil }
        self.rev = rev
        self.text = text
        from = json["from"]?.stringValue ?? "agent"
        at = json["at"]?.stringValue ?? ""
    }
}
