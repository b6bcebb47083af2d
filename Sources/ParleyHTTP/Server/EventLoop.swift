import CEpoll
import Glibc
import Logging

/// One epoll loop on its own thread: accepts from its own SO_REUSEPORT listener, reads,
/// parses and writes for the connections it owns. Everything here runs on that one thread;
/// other threads reach it only through its `LoopHandle`.
final class EventLoop {
    let core: ServerCore
    /// This loop's place among the server's loops (0, 1, …): requests carry it as their
    /// context's `loopIndex`, a shard key for state they all write.
    let index: Int
    /// This loop's own responder (``ServerCore/responders``).
    let responder: any HTTPResponder
    let handle: LoopHandle
    /// Every loop's handle, this one's included, for balancing connections between them.
    private let peers: [LoopHandle]
    private let epoll: FileDescriptor
    private var listener: FileDescriptor?
    private let listenerFD: Int32
    // The variables below skip the dynamic exclusivity check: only this loop's thread touches
    // them, and none is reached while an access to it is open. The checks cost a runtime call at
    // each of the reads every request makes (the time, the date line).
    @exclusivity(unchecked) private var connections: [Int32: Connection] = [:]
    /// Scratch space every read lands in before it is appended to a connection's input.
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    @exclusivity(unchecked) private(set) var dateCache = DateCache()
    /// This loop's buffered access log (used only when `core.logsAccess`).
    private var accessLog: AccessLog
    @exclusivity(unchecked) private(set) var now: UInt64 = Syscall.monotonicNanoseconds()
    @exclusivity(unchecked) private(set) var draining = false
    /// The storage the inbox's messages are taken into (``LoopHandle/takeMessages(resetting:into:)``),
    /// kept empty between rounds so taking them allocates nothing.
    @exclusivity(unchecked) private var spareMessages: [LoopMessage] = []
    private var drainDeadline: UInt64 = .max
    private let tick: Int32
    private var acceptsPaused = false

    /// Takes ownership of `listener`, a raw descriptor handed over by `HTTPServer.start()`.
    init(core: ServerCore, index: Int, handle: LoopHandle, peers: [LoopHandle] = [], listener: Int32)
        throws(SocketError)
    {
        self.core = core
        self.index = index
        responder = core.responder(loop: index)
        self.handle = handle
        self.peers = peers
        self.listener = FileDescriptor(owning: listener)
        self.listenerFD = listener
        accessLog = AccessLog(configuration: core.configuration)
        epoll = try Syscall.epollCreate()
        let configuration = core.configuration
        let shortest =
            [
                configuration.headerReadTimeout, configuration.bodyIdleTimeout, configuration.keepAliveIdleTimeout,
                configuration.writeTimeout, configuration.streamHeartbeatInterval,
            ].map(\.nanoseconds).min() ?? 1_000_000_000
        // Timeouts are checked every quarter of the shortest one, between 5 ms and 250 ms.
        tick = Int32(min(250, max(5, shortest / 4_000_000)))
        try Syscall.epollControl(epoll.rawValue, EPOLL_CTL_ADD, listenerFD, events: EPOLLIN.rawValue)
        try Syscall.epollControl(epoll.rawValue, EPOLL_CTL_ADD, handle.wakeup.rawValue, events: EPOLLIN.rawValue)
    }

    deinit { scratch.deallocate() }

    /// Runs until drained; then tells the handle.
    func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var nextTick = now + UInt64(tick) * 1_000_000
        handle.bindToCurrentThread()
        while true {
            let count = Syscall.epollWait(epoll.rawValue, into: &events, timeout: tick)
            if count < 0 && errno != EINTR {
                core.logger.critical("epoll_wait failed", metadata: ["error": "\(SocketError.system("epoll_wait"))"])
                break
            }
            now = Syscall.monotonicNanoseconds()
            dateCache.refresh()
            for index in 0..<max(0, Int(count)) {
                let fd = events[index].data.fd
                let flags = events[index].events
                if fd == listenerFD {
                    acceptConnections()
                } else if fd == handle.wakeup.rawValue {
                    handleMessages(resetting: true)
                } else if let connection = connections[fd] {
                    connection.handle(events: flags)
                }
            }
            // What this round posted to the loop itself (a job's response, a job that finished
            // without suspending) wrote no wake-up: it is taken here.
            if handle.hasMessages { handleMessages(resetting: false) }
            if now >= nextTick {
                nextTick = now + UInt64(tick) * 1_000_000
                for connection in Array(connections.values) { connection.checkTimeout() }
                accessLog.flushIfDue(now: now)
                if acceptsPaused && !draining {
                    acceptsPaused = false
                    watch(listenerFD, events: EPOLLIN.rawValue)
                }
            }
            if draining {
                for connection in Array(connections.values) where connection.isIdle { connection.close() }
                if connections.isEmpty || now >= drainDeadline { break }
            }
        }
        for connection in Array(connections.values) { connection.close() }
        accessLog.flush()
        handle.settle(handle.close())
        handle.markFinished()
    }

    private func acceptConnections() {
        guard !draining else { return }
        for _ in 0..<64 {
            var peer = ""
            let accepted: FileDescriptor?
            do { accepted = try Syscall.accept(listenerFD, peer: &peer) } catch {
                // Out of descriptors or memory: the pending connection keeps the level-triggered
                // listener readable, so stop watching it for a tick instead of spinning.
                core.logger.warning("accept failed; pausing accepts", metadata: ["error": "\(error)"])
                watch(listenerFD, events: 0)
                acceptsPaused = true
                return
            }
            guard let socket = accepted else { return }
            let open = core.openConnections.add(1, ordering: .relaxed).newValue
            guard open <= core.configuration.maxConnections else {
                core.openConnections.subtract(1, ordering: .relaxed)
                continue  // `socket` closes here
            }
            if let target = lessLoadedPeer() {
                target.connectionCount.add(1, ordering: .relaxed)
                target.post(.adopt(fd: socket.release(), peer: peer))
                continue
            }
            handle.connectionCount.add(1, ordering: .relaxed)
            register(socket, peer: peer)
        }
    }

    /// The loop to hand a new connection to: one serving at least two fewer than this one, the
    /// fewest first; nil keeps it here. SO_REUSEPORT places connections by a hash of their
    /// addresses, so a few dozen long-lived ones often split 26/38, and the fuller loop's clients
    /// wait longer; with the counts taken at placement, loops stay within two of each other.
    private func lessLoadedPeer() -> LoopHandle? {
        guard peers.count > 1 else { return nil }
        var best: LoopHandle?
        var fewest = handle.connectionCount.load(ordering: .relaxed) - 1
        for peer in peers where peer !== handle {
            let count = peer.connectionCount.load(ordering: .relaxed)
            if count < fewest {
                best = peer
                fewest = count
            }
        }
        return best
    }

    /// Starts serving an accepted connection whose slot in `handle.connectionCount` is taken.
    private func register(_ socket: consuming FileDescriptor, peer: String) {
        func giveUp() {
            core.openConnections.subtract(1, ordering: .relaxed)
            handle.connectionCount.subtract(1, ordering: .relaxed)
        }
        guard !draining else { return giveUp() }  // handed over as this loop began to drain
        let fd = socket.rawValue
        let id = core.nextConnectionID.add(1, ordering: .relaxed).newValue
        var tls: TLSSession?
        if let context = core.tls {
            tls = TLSSession(context: context, fd: fd)
            if tls == nil { return giveUp() }
        }
        let connection = Connection(socket: socket, id: id, peer: peer, tls: tls, loop: self)
        do { try Syscall.epollControl(epoll.rawValue, EPOLL_CTL_ADD, fd, events: EPOLLIN.rawValue) } catch {
            return giveUp()
        }
        connections[fd] = connection
    }

    /// Handles the inbox's messages, and those they post to the loop itself (a job's response),
    /// until it is empty; `resetting` the wake-up eventfd first (after a wake-up).
    private func handleMessages(resetting: Bool) {
        // The loop's own array, moved out while its messages are handled (a job run here may post
        // to the loop, never reach this array) and put back empty with its storage.
        var messages = spareMessages
        spareMessages = []
        handle.takeMessages(resetting: resetting, into: &messages)
        while !messages.isEmpty {
            handle(messages)
            messages.removeAll(keepingCapacity: true)
            handle.takeMessages(resetting: false, into: &messages)
        }
        spareMessages = messages
    }

    private func handle(_ messages: [LoopMessage]) {
        for message in messages {
            switch message {
            case .run(let job):
                handle.run(job)
            case .response(let fd, let id, let response):
                guard let connection = connections[fd], connection.id == id else {
                    response.stream?.end()  // the client left before its stream opened
                    continue
                }
                connection.deliver(response)
            case .streamReady(let fd, let id):
                guard let connection = connections[fd], connection.id == id else { continue }
                connection.pumpStream()
            case .adopt(let fd, let peer):
                register(FileDescriptor(owning: fd), peer: peer)
            case .drain(let deadline):
                draining = true
                drainDeadline = deadline
                listener = nil  // closing the descriptor also removes it from epoll
                for connection in Array(connections.values) { connection.drain() }
            }
        }
    }

    /// Adds one access-log line for a finished exchange (the caller checked `core.logsAccess`).
    func logAccess(
        method: String, path: String, status: Int, bytes: Int, nanoseconds: UInt64, peer: String,
        requestId: String? = nil
    ) {
        accessLog.record(
            time: dateCache.logTime, method: method, path: path, status: status, bytes: bytes,
            nanoseconds: nanoseconds, peer: peer, requestId: requestId, now: now)
    }

    /// Changes the events `fd` is watched for.
    func watch(_ fd: Int32, events: UInt32) {
        try? Syscall.epollControl(epoll.rawValue, EPOLL_CTL_MOD, fd, events: events)
    }

    /// Forgets a closed connection.
    func remove(_ connection: Connection) {
        connections[connection.fd] = nil
        core.openConnections.subtract(1, ordering: .relaxed)
        handle.connectionCount.subtract(1, ordering: .relaxed)
    }

    /// Runs a route's off-loop `work` as a task on the responder threads, or `here` on this
    /// loop's thread (``HTTPRoute/runsOnLoop``), and posts the response back.
    func respondOffLoop(
        _ work: @escaping @Sendable () async throws -> HTTPResponse, for request: HTTPRequest,
        context: RequestContext, fd: Int32, id: UInt64, here: Bool
    ) {
        let handle = handle
        // Each task's operation is written where it is passed: a closure stored first and then
        // passed was converted to the task's operation type through three thunks, each an async
        // frame and a partial application on every off-loop request.
        if here {
            // Started at once (no job queued first); resumed on this loop, through its handle.
            Task.immediate(executorPreference: handle) {
                let response = await HTTPNext.settle(work, request, context)
                handle.post(.response(fd: fd, id: id, response: response))
            }
        } else {
            Task(executorPreference: core.responderPool) {
                let response = await HTTPNext.settle(work, request, context)
                handle.post(.response(fd: fd, id: id, response: response))
            }
        }
    }
}
