import CEpoll

/// One client connection, owned by an event loop and touched only on its thread. Only the I/O
/// lives here — reads, writes, TLS, epoll interest, closing; what the bytes mean and what happens
/// next is decided by its `ConnectionStateMachine`, and every system call goes through `Syscall`.
final class Connection {
    let socket: FileDescriptor
    let id: UInt64
    let peer: String
    let tls: TLSSession?
    /// Unowned without a check: the loop owns its connections and outlives them (it closes each
    /// before it exits), and every use is on the loop's thread; a checked reference cost an
    /// atomic retain and release at each of the dozen uses per request.
    unowned(unsafe) let loop: EventLoop
    var handshaking: Bool
    /// Unchecked exclusivity: touched only on the loop's thread, and no call into it reaches
    /// back into it (its closures write to the socket or match a route); the dynamic check cost
    /// a runtime call at each of the dozen accesses per request.
    @exclusivity(unchecked) var machine: ConnectionStateMachine
    /// The stream this connection writes, kept until the connection closes so its producer is
    /// always told the stream ended.
    var stream: ResponseStream?
    /// What each request's context shares: made once per connection, not once per request.
    let contextShared: RequestContext.Shared
    private var interest: UInt32 = EPOLLIN.rawValue
    private(set) var isClosed = false

    init(socket: consuming FileDescriptor, id: UInt64, peer: String, tls: TLSSession?, loop: EventLoop) {
        self.socket = socket
        self.id = id
        self.peer = peer
        self.tls = tls
        self.loop = loop
        handshaking = tls != nil
        machine = ConnectionStateMachine(limits: loop.core.limits, now: loop.now)
        machine.output.referencesSmallBodies = tls == nil
        contextShared = RequestContext.Shared(
            logger: loop.core.logger, remoteAddress: peer, isSecure: tls != nil, loopIndex: loop.index)
    }

    var fd: Int32 { socket.rawValue }

    /// Idle between requests or lingering: safe to close on shutdown.
    var isIdle: Bool { machine.isIdle }

    /// Reacts to an epoll readiness report.
    func handle(events: UInt32) {
        if events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 {
            // Reset or fully closed: nothing can be written any more. Closing now also stops a
            // level-triggered error from spinning while an off-loop responder works.
            return close()
        }
        if handshaking {
            continueHandshake()
        } else {
            if events & EPOLLOUT.rawValue != 0 {
                flush()
                // Pipelined requests parked while the client was not reading resume now.
                if !isClosed, machine.output.isEmpty { advance() }
            }
            if !isClosed && events & EPOLLIN.rawValue != 0 { readAvailable() }
        }
        if !isClosed { updateInterest() }
    }

    private func continueHandshake() {
        guard let tls else { return }
        switch tls.handshake() {
        case .done:
            handshaking = false
            machine.touch(now: loop.now)
            readAvailable()
        case .wantRead: interest = EPOLLIN.rawValue
        case .wantWrite: interest = EPOLLOUT.rawValue
        default: close()
        }
    }

    /// Reads what the socket has, then parses and answers as far as possible.
    func readAvailable() {
        let discarding = machine.discardsInput || machine.stream != nil
        // Lingering or streaming: a bounded number of reads per wake-up, so a client that keeps
        // sending cannot hold the loop.
        for _ in 0..<(discarding ? 16 : Int.max) {
            let status = receive(into: loop.scratch)
            switch status {
            case .bytes(let count):
                let bytes = UnsafeRawBufferPointer(rebasing: loop.scratch[0..<count])
                // Plain sockets: one read per wake-up unless it filled the buffer, parsed where
                // it lies (advance comes before the next read). TLS: drain OpenSSL's buffered
                // records too, or level-triggered epoll would not report them.
                if !discarding && tls == nil && count < loop.scratch.count {
                    machine.lend(bytes, now: loop.now)
                    return advance()
                }
                machine.received(bytes, now: loop.now)
                if discarding { continue }
                if machine.inputIsFull(chunk: loop.scratch.count) { return advance() }
            case .wantRead, .wantWrite, .done: return discarding ? () : advance()
            case .closed, .failed:
                if !discarding && !machine.input.isEmpty { advance() }
                if !isClosed { perform(machine.inputEnded()) }
                return
            }
        }
    }

    /// One read from the socket or TLS session.
    private func receive(into buffer: UnsafeMutableRawBufferPointer) -> IOStatus {
        if let tls { return tls.read(buffer) }
        return Syscall.receive(fd, into: buffer)
    }

    /// Writes pending output; waits for EPOLLOUT when the socket buffer is full.
    func flush() {
        let tls = tls
        let fd = fd
        perform(
            machine.flush(now: loop.now) { first, second in
                if let tls { return tls.write(first) }
                return Syscall.send(fd, first, second)
            })
    }

    /// Carries out what the state machine asked for.
    func perform(_ action: ConnectionStateMachine.Action) {
        switch action {
        case .none: break
        case .flush: flush()
        case .linger:
            // TLS cannot half-close cleanly; plain sockets shut the write side and drain input.
            guard tls == nil else { return close() }
            Syscall.shutdownWrite(fd)
            machine.startLingering(now: loop.now)
            endStream()
        case .close: close()
        }
    }

    /// Watches for what the connection needs next.
    func updateInterest() {
        var wanted: UInt32
        if handshaking {
            wanted = interest
        } else {
            switch machine.interest {
            case .write: wanted = EPOLLOUT.rawValue
            case .read: wanted = EPOLLIN.rawValue
            case .none: wanted = 0
            }
        }
        if wanted != interest || handshaking {
            interest = wanted
            loop.watch(fd, events: wanted)
        }
    }

    /// Enforces the timeouts and heartbeats; called by the loop every tick.
    func checkTimeout() {
        perform(machine.tick(now: loop.now, date: loop.dateCache.line, handshaking: handshaking))
        if !isClosed { updateInterest() }
    }

    /// The server drains: see `ConnectionStateMachine.shutdown()`.
    func drain() {
        perform(machine.shutdown())
        if !isClosed { updateInterest() }
    }

    /// Closes the socket, forgets the connection and tells a stream's producer it ended.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        loop.remove(self)
        endStream()
    }

    /// Tells a stream's producer that nothing more will be written (the stream's last bytes are
    /// out, or the connection is gone).
    private func endStream() {
        stream?.end()
        stream = nil
    }
}
