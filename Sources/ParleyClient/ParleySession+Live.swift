extension ParleySession {
    /// Follows the session live (`GET /v1/sessions/{id}/events`, docs/live-sessions.md): every
    /// snapshot the server sends that is newer than the shown one, through ``accept(_:)``, so an
    /// agent's message or move, or an answer from another device, shows at once.
    ///
    /// The stream reconnects when the connection drops or falls silent (heartbeats stop), sending
    /// `Last-Event-ID` with the shown rev so nothing is missed and nothing repeats, after the
    /// server's `retry:` time or, when connecting fails, the endpoint's backoff. It finishes after a
    /// completed or expired snapshot (those never change again) and when the consuming task is
    /// cancelled; it throws when the session is gone (410, ``ParleyClientError/isExpired``), the
    /// server refuses (4xx), connecting fails ``RetryPolicy/attempts`` times in a row, or the
    /// transport cannot stream (it must be a ``ParleyStreamingTransport``).
    public nonisolated func followLive() -> AsyncThrowingStream<ParleySnapshot, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ParleySnapshot, any Error>.makeStream()
        let task = Task {
            do {
                try await LiveFollower(session: self).run { continuation.yield($0) }
                continuation.finish()
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
