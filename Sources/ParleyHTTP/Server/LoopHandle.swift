import Glibc
import Synchronization

/// A message to a loop, from another thread or (a job's response) from its own.
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
    /// A task's job to run on the loop (``LoopHandle`` as a task executor).
    case run(UnownedJob)
}

/// The thread-safe face of one event loop: its wake-up eventfd and an inbox.
///
/// It is also a task executor: a task that prefers it runs its jobs on the loop's thread, between
/// the loop's events (issue 27: a session request starts on its loop and, once the database
/// answers, goes on there too, so the poller wakes the loop that writes the response instead
/// of a responder thread that then wakes the loop). Once the loop has exited, jobs go to
/// `fallback`, so no task is ever stranded.
final class LoopHandle: TaskExecutor, Sendable {
    private struct Inbox {
        var messages: [LoopMessage] = []
        /// The loop has exited: nothing reads the inbox any more.
        var closed = false
    }

    let wakeup: FileDescriptor
    /// Connections this loop serves or has been handed and not yet taken: what balancing reads.
    let connectionCount = Atomic<Int>(0)
    private let inbox = Mutex(Inbox())
    private let exit = Mutex<(finished: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    /// The loop's thread (`pthread_self()`), once it runs: a message it posts to itself needs no
    /// wake-up, since the loop looks at its inbox after every round of events.
    private let loopThread = Atomic<UInt>(0)
    /// Where jobs run once the loop has exited.
    private let fallback: any TaskExecutor

    init(fallback: any TaskExecutor) throws(SocketError) {
        wakeup = try Syscall.eventFD()
        self.fallback = fallback
    }

    /// Called by the loop on its thread before its first round.
    func bindToCurrentThread() { loopThread.store(pthread_self(), ordering: .relaxed) }

    /// Queues `message` and wakes the loop. Only the first message into an empty inbox writes
    /// the eventfd: the loop reads the eventfd before it empties the inbox, so a message that
    /// finds the inbox non-empty is always taken by a wake-up already on its way. The loop's own
    /// messages write nothing (``hasMessages`` is checked after every round). Returns false, with
    /// nothing queued, once the loop has exited.
    @discardableResult
    func post(_ message: LoopMessage) -> Bool {
        let (queued, wasEmpty) = inbox.withLock { inbox -> (Bool, Bool) in
            guard !inbox.closed else { return (false, false) }
            defer { inbox.messages.append(message) }
            return (true, inbox.messages.isEmpty)
        }
        guard wasEmpty, pthread_self() != loopThread.load(ordering: .relaxed) else { return queued }
        Syscall.signal(eventFD: wakeup.rawValue)
        return queued
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !post(.run(job)) { fallback.enqueue(ExecutorJob(job)) }
    }

    /// Whether messages wait (read by the loop after each round of events).
    var hasMessages: Bool { inbox.withLock { !$0.messages.isEmpty } }

    /// Takes every queued message into `taken` (called by the loop after a wake-up, `resetting`
    /// the eventfd), which the loop hands in empty: the two arrays trade places, so the inbox
    /// goes on with the loop's emptied storage. Returned as a copy and emptied in place, the
    /// inbox's storage was still shared with that copy, so emptying it allocated new storage on
    /// every take (two or three an answer).
    func takeMessages(resetting: Bool, into taken: inout [LoopMessage]) {
        if resetting { Syscall.reset(eventFD: wakeup.rawValue) }
        inbox.withLock { inbox in swap(&inbox.messages, &taken) }
    }

    /// Called by the loop as its thread ends: later messages are refused (jobs go to the
    /// fallback executor), and those still queued are returned.
    func close() -> [LoopMessage] {
        inbox.withLock { inbox in
            inbox.closed = true
            defer { inbox.messages = [] }
            return inbox.messages
        }
    }

    /// Runs `job` on the loop's thread (the loop's part of being its executor).
    func run(_ job: UnownedJob) { job.runSynchronously(on: asUnownedTaskExecutor()) }

    /// Runs or hands on what was left in the inbox of an exited loop: jobs go to the fallback
    /// executor; responses' streams are ended (their clients are gone).
    func settle(_ leftovers: [LoopMessage]) {
        for message in leftovers {
            switch message {
            case .run(let job): fallback.enqueue(ExecutorJob(job))
            case .response(_, _, let response): response.stream?.end()
            case .adopt(let fd, _): Syscall.close(fd)
            case .streamReady, .drain: break
            }
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
