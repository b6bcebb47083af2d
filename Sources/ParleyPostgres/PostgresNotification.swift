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

/// One notification as a payload handler receives it (``PostgresListener/subscribe(channel:payloadHandler:)``).
public enum PostgresPayload {
    /// The payload's UTF-8 bytes where libpq holds them: valid only during the handler's call
    /// (libpq frees them once it returns), so read them there and keep none of them.
    case bytes(UnsafeBufferPointer<UInt8>)
    /// The listener lost its connection and listens again (``PostgresNotification/isReconnect``).
    case reconnect
}
