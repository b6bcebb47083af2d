import Glibc
import Logging
import Synchronization

/// What every event loop of one server shares; immutable apart from the atomic connection count.
final class ServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    /// The per-connection limits, converted once.
    let limits: ConnectionLimits
    /// One responder per event loop (index), each built by the server's owner for that loop:
    /// the closures and objects a request walks through are then the loop's own, and the
    /// reference counts every request takes on them stay on its core's cache lines.
    let responders: [any HTTPResponder]
    let logger: Logger
    let tls: TLSContext?
    let responderPool: ResponderThreadPool
    let openConnections = Atomic<Int>(0)
    let nextConnectionID = Atomic<UInt64>(1)

    init(
        configuration: HTTPServerConfiguration, responders: [any HTTPResponder], logger: Logger, tls: TLSContext?
    ) {
        precondition(!responders.isEmpty, "a server needs a responder")
        self.configuration = configuration
        limits = ConnectionLimits(configuration)
        self.responders = responders
        self.logger = logger
        self.tls = tls
        responderPool = ResponderThreadPool()
        logsAccess = configuration.accessLog && logger.logLevel <= .info
    }

    /// The responder of loop `index` (the first for a request that reached no loop).
    func responder(loop index: Int) -> any HTTPResponder { responders[index % responders.count] }

    /// Whether access-log lines would be emitted, checked before building one.
    let logsAccess: Bool
}

/// A message to a loop from another thread.
enum LoopMessage: Sendable {
    /// An off-loop responder finished the request on connection `fd`/`id`.
    case response(fd: Int32, id: UInt64, response: HTTPResponse)
    /// The stream open on connection `fd`/`id` has chunks to write (or has finished).
    case streamReady(fd: Int32, id: UInt64)
    /// Stop accepting, finish in-flight requests, then exit; force-close at `deadline` (monotonic ns).
    case drain(deadline: UInt64)
    /// A connection another loop accepted, handed over because this loop serves fewer; its slot
    /// in ``LoopHandle/connectionCount`` is already taken.
    case adopt(fd: Int32, peer: String)
}

/// The thread-safe face of one event loop: its wake-up eventfd and an inbox.
final class LoopHandle: Sendable {
    let wakeup: FileDescriptor
    /// Connections this loop serves or has been handed and not yet taken: what balancing reads.
    let connectionCount = Atomic<Int>(0)
    private let inbox = Mutex<[LoopMessage]>([])
    private let exit = Mutex<(finished: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    init() throws(SocketError) { wakeup = try Syscall.eventFD() }

    /// Queues `message` and wakes the loop. Only the first message into an empty inbox writes
    /// the eventfd: the loop reads the eventfd before it empties the inbox, so a message that
    /// finds the inbox non-empty is always taken by a wake-up already on its way.
    func post(_ message: LoopMessage) {
        let wasEmpty = inbox.withLock { messages in
            defer { messages.append(message) }
            return messages.isEmpty
        }
        guard wasEmpty else { return }
        Syscall.signal(eventFD: wakeup.rawValue)
    }

    /// Takes every queued message (called by the loop after a wake-up).
    func takeMessages() -> [LoopMessage] {
        Syscall.reset(eventFD: wakeup.rawValue)
        return inbox.withLock { messages in
            defer { messages.removeAll(keepingCapacity: true) }
            return messages
        }
    }

    /// Called by the loop as its thread ends.
    func markFinished() {
        let waiters = exit.withLock { state in
            state.finished = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the loop has exited.
    func waitUntilFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = exit.withLock { state in
                if !state.finished { state.waiters.append(continuation) }
                return state.finished
            }
            if finished { continuation.resume() }
        }
    }
}
