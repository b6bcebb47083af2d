/// One event of a `text/event-stream` as the WHATWG HTML standard's "dispatch the event" step
/// produces it (§9.2.6 "Interpreting an event stream").
public struct ServerSentEvent: Sendable, Equatable {
    /// The `event:` field, `message` when the event named none.
    public var type: String
    /// The `data:` lines joined with line feeds.
    public var data: String
    /// The last event ID when the event was dispatched (the stream's, not only this event's `id:`).
    public var lastEventId: String

    /// Creates an event.
    public init(type: String = "message", data: String, lastEventId: String = "") {
        self.type = type
        self.data = data
        self.lastEventId = lastEventId
    }
}
