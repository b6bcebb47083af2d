public import ParleyCore

/// What submitting a step's answers came to.
public enum AnswerOutcome: Sendable, Equatable {
    /// The server took the answers; the session moved to this snapshot (completed when the flow ended).
    case accepted(ParleySnapshot)
    /// The local interpreter refused them: nothing was sent. Show the errors.
    case invalidLocally([ValidationError])
    /// The server refused them (a rule the client core defers, or one naming an earlier step's
    /// field): show the errors; the snapshot is unchanged.
    case invalidOnServer([ValidationError])
    /// The session moved on elsewhere (another device, an agent, an earlier retry): show this snapshot.
    case superseded(ParleySnapshot)
}
