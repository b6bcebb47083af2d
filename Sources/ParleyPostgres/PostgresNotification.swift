/// One `NOTIFY` received by a ``PostgresListener``.
public struct PostgresNotification: Sendable, Hashable {
    /// The channel it was sent on.
    public let channel: String
    /// The payload (empty when none was given).
    public let payload: String
    /// The server process that sent it (0 for a reconnect marker).
    public let senderPID: Int32
    /// True for a marker the listener sends after it lost its connection and listens again:
    /// notifications sent meanwhile are lost, so treat it as "anything may have changed".
    public let isReconnect: Bool
}
