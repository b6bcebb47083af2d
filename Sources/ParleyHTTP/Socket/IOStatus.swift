/// What one non-blocking read, write or TLS handshake step did.
enum IOStatus: Hashable {
    /// Transferred this many bytes.
    case bytes(Int)
    /// Finished (a handshake, or a queue fully written).
    case done
    /// Would block until the socket is readable.
    case wantRead
    /// Would block until the socket is writable.
    case wantWrite
    /// The peer closed the connection.
    case closed
    /// The connection failed.
    case failed
}
