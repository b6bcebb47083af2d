import Synchronization

/// The body of a response written over time (Server-Sent Events): a responder returns a
/// response carrying one, and any thread may then ``send(_:)`` chunks to it. Each chunk is
/// written whole and flushed on its own; the connection's event loop is woken through its
/// eventfd, so an idle stream costs a descriptor and a small buffer, never a thread.
///
/// The queue is bounded: a producer that gets more than `maxQueuedBytes` ahead of the socket
/// (a reader too slow or gone) ends the stream instead of growing memory. The stream ends when
/// the producer calls ``finish()``, the client disconnects, the reader falls too far behind, or
/// the server shuts down (at a chunk boundary); ``onEnd(_:)`` is then called once.
public final class ResponseStream: Sendable {
    private struct State {
        var chunks: [[UInt8]] = []
        var queuedBytes = 0
        /// The producer is done (or overflowed): close once the queued chunks are written.
        var finishing = false
        /// The connection is gone or the stream was never opened: nothing more is written.
        var ended = false
        /// Set once the stream is open on a connection: whom to wake.
        var loop: (handle: LoopHandle, fd: Int32, connection: UInt64)?
        /// A wake-up is on its way: further chunks ride on it.
        var woken = false
        var endHandlers: [@Sendable () -> Void] = []
    }

    /// The most bytes queued and not yet taken by the loop (and, separately, not yet written to
    /// the socket) before the stream is closed.
    public let maxQueuedBytes: Int
    /// Written when the stream has been silent for the server's heartbeat interval (an SSE
    /// comment line); empty sends none.
    public let heartbeat: [UInt8]
    private let state = Mutex(State())

    /// A stream that bounds its queue at `maxQueuedBytes` and writes `heartbeat` when silent.
    public init(maxQueuedBytes: Int, heartbeat: [UInt8] = []) {
        self.maxQueuedBytes = maxQueuedBytes
        self.heartbeat = heartbeat
    }

    /// Queues one chunk (for SSE: one whole event). Returns false when the stream has ended or
    /// the chunk would overflow the queue (which ends it).
    @discardableResult
    public func send(_ chunk: [UInt8]) -> Bool {
        let (accepted, wake) = state.withLock { state -> (Bool, (LoopHandle, Int32, UInt64)?) in
            guard !state.ended, !state.finishing else { return (false, nil) }
            if state.queuedBytes + chunk.count > maxQueuedBytes {
                state.finishing = true
                state.chunks.removeAll()
                state.queuedBytes = 0
                return (false, Self.wakeUp(&state))
            }
            state.chunks.append(chunk)
            state.queuedBytes += chunk.count
            return (true, Self.wakeUp(&state))
        }
        if let (handle, fd, connection) = wake { handle.post(.streamReady(fd: fd, id: connection)) }
        return accepted
    }

    /// Ends the stream once the queued chunks are written.
    public func finish() {
        let wake = state.withLock { state -> (LoopHandle, Int32, UInt64)? in
            guard !state.ended, !state.finishing else { return nil }
            state.finishing = true
            return Self.wakeUp(&state)
        }
        if let (handle, fd, connection) = wake { handle.post(.streamReady(fd: fd, id: connection)) }
    }

    /// Ends a stream that was never returned in a response (its request failed after opening it),
    /// so its ``onEnd(_:)`` handlers run; a stream already open ends with ``finish()`` instead.
    public func cancel() { end() }

    /// Whether chunks are still accepted.
    public var isOpen: Bool { state.withLock { !$0.ended && !$0.finishing } }

    /// Calls `handler` once when the stream ends for any reason (at once if it already has), so
    /// the producer can forget it.
    public func onEnd(_ handler: @escaping @Sendable () -> Void) {
        let already = state.withLock { state -> Bool in
            if !state.ended { state.endHandlers.append(handler) }
            return state.ended
        }
        if already { handler() }
    }

    /// The loop to wake, unless a wake-up is already pending or the stream is not open yet.
    private static func wakeUp(_ state: inout State) -> (LoopHandle, Int32, UInt64)? {
        guard let loop = state.loop, !state.woken else { return nil }
        state.woken = true
        return (loop.handle, loop.fd, loop.connection)
    }

    /// Opened on connection `fd`/`connection` of the loop behind `handle`; chunks queued before
    /// are written at once.
    func attach(to handle: LoopHandle, fd: Int32, connection: UInt64) {
        let wake = state.withLock { state -> (LoopHandle, Int32, UInt64)? in
            state.loop = (handle, fd, connection)
            return state.chunks.isEmpty && !state.finishing ? nil : Self.wakeUp(&state)
        }
        if let (handle, fd, connection) = wake { handle.post(.streamReady(fd: fd, id: connection)) }
    }

    /// Takes the queued chunks (on the loop, after a wake-up); `ended` when nothing follows them.
    func take() -> (chunks: [[UInt8]], ended: Bool) {
        state.withLock { state in
            state.woken = false
            defer {
                state.chunks = []
                state.queuedBytes = 0
            }
            return (state.chunks, state.finishing)
        }
    }

    /// The connection closed, or the stream was never opened: tells the producer, once.
    func end() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.ended else { return [] }
            state.ended = true
            state.chunks = []
            state.queuedBytes = 0
            state.loop = nil
            defer { state.endHandlers = [] }
            return state.endHandlers
        }
        for handler in handlers { handler() }
    }
}
