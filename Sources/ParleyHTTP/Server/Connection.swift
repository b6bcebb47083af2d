import CEpoll
import Glibc

/// One client connection, owned by an event loop and touched only on its thread. Holds the
/// unconsumed input and the pending output; memory stays bounded because input is only read
/// while a request is being parsed and output holds at most the responses of one read.
final class Connection {
    /// Where the connection is in its request cycle.
    enum Phase {
        /// Between requests, nothing received yet.
        case idle
        /// Part of a head received since `phaseStart`.
        case head
        /// Head parsed, body being received.
        case body(Exchange)
        /// An off-loop responder is working on the request.
        case responding(Exchange)
        /// Flushing a final response, then closing.
        case closing
        /// Final response sent and write side shut; discarding input until EOF or the deadline,
        /// so a client still sending does not get a reset that destroys the response.
        case lingering
    }

    let socket: FileDescriptor
    let id: UInt64
    let peer: String
    let tls: TLSSession?
    unowned let loop: EventLoop
    var handshaking: Bool
    var phase = Phase.idle
    var input: [UInt8] = []
    /// How far the head at the front of `input` has been validated; reads resume there.
    var headScanner: HTTPHeadScanner
    var output = OutputQueue()
    var lastActivity: UInt64
    var phaseStart: UInt64
    private var interest: UInt32 = EPOLLIN.rawValue
    private(set) var isClosed = false

    init(socket: consuming FileDescriptor, id: UInt64, peer: String, tls: TLSSession?, loop: EventLoop) {
        self.socket = socket
        self.id = id
        self.peer = peer
        self.tls = tls
        self.loop = loop
        handshaking = tls != nil
        headScanner = HTTPHeadScanner(limits: loop.core.configuration.parserLimits)
        lastActivity = loop.now
        phaseStart = loop.now
    }

    var fd: Int32 { socket.rawValue }

    /// Idle between requests with nothing left to send, or done and lingering: safe to close on shutdown.
    var isIdle: Bool {
        if case .lingering = phase { return true }
        if case .idle = phase, input.isEmpty, output.isEmpty { return true }
        return false
    }

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
                if !isClosed, output.isEmpty, !input.isEmpty, case .idle = phase { advance() }
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
            lastActivity = loop.now
            readAvailable()
        case .wantRead: interest = EPOLLIN.rawValue
        case .wantWrite: interest = EPOLLOUT.rawValue
        default: close()
        }
    }

    /// Reads what the socket has, then parses and answers as far as possible.
    func readAvailable() {
        if case .lingering = phase { return discardInput() }
        while true {
            let status = receive(into: loop.scratch)
            switch status {
            case .bytes(let count):
                input.append(contentsOf: UnsafeRawBufferPointer(rebasing: loop.scratch[0..<count]))
                lastActivity = loop.now
                // Plain sockets: one read per wake-up unless it filled the buffer. TLS: drain
                // OpenSSL's buffered records too, or level-triggered epoll would not report them.
                if tls == nil && count < loop.scratch.count { return advance() }
                if input.count > loop.scratch.count * 2 { return advance() }
            case .wantRead, .wantWrite, .done: return advance()
            case .closed, .failed: return peerClosed()
            }
        }
    }

    /// The client finished sending (EOF or TLS close_notify): answer what it already sent, then close.
    private func peerClosed() {
        if !input.isEmpty { advance() }
        guard !isClosed else { return }
        switch phase {
        case .responding(var exchange):
            exchange.keepAlive = false
            phase = .responding(exchange)
        case .closing, .lingering:
            break
        case .idle, .head, .body:
            if output.isEmpty { close() } else { phase = .closing }
        }
    }

    /// Drops input while lingering; a bounded number of reads per wake-up so a client that
    /// keeps sending cannot hold the loop.
    private func discardInput() {
        for _ in 0..<16 {
            switch receive(into: loop.scratch) {
            case .bytes: continue
            case .wantRead, .wantWrite, .done: return
            case .closed, .failed: return close()
            }
        }
    }

    /// One read from the socket or TLS session.
    private func receive(into buffer: UnsafeMutableRawBufferPointer) -> IOStatus {
        if let tls { return tls.read(buffer) }
        let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
        if count > 0 { return .bytes(count) }
        if count == 0 { return .closed }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wantRead : .failed
    }

    /// Writes pending output; waits for EPOLLOUT when the socket buffer is full.
    func flush() {
        let status = output.drain { first, second in send(first, second) }
        switch status {
        case .done: break
        case .closed, .failed: return close()
        default: return
        }
        if case .closing = phase { startLingering() }
    }

    /// One write: both pieces in one `sendmsg` (a writev) on plain sockets on plain sockets, the first piece through TLS.
    private func send(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer?) -> IOStatus {
        if let tls { return tls.write(first) }
        let count: Int
        if let second {
            var vectors = (
                iovec(iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress), iov_len: first.count),
                iovec(iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress), iov_len: second.count)
            )
            // sendmsg is writev with flags: MSG_NOSIGNAL, so a vanished client raises no SIGPIPE.
            count = withUnsafeMutableBytes(of: &vectors) { raw in
                var message = msghdr()
                message.msg_iov = raw.baseAddress!.assumingMemoryBound(to: iovec.self)
                message.msg_iovlen = 2
                return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
            }
        } else {
            count = Glibc.send(fd, first.baseAddress, first.count, Int32(MSG_NOSIGNAL))
        }
        if count >= 0 {
            lastActivity = loop.now
            return .bytes(count)
        }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wantWrite : .failed
    }

    private func startLingering() {
        guard tls == nil else { return close() }
        shutdown(fd, Int32(SHUT_WR))
        phase = .lingering
        phaseStart = loop.now
        input = []
    }

    /// Watches for what the connection needs next: output space, input, or nothing while a
    /// responder works (so a pipelining client cannot grow the input meanwhile).
    func updateInterest() {
        var wanted: UInt32
        if handshaking {
            wanted = interest
        } else if !output.isEmpty {
            wanted = EPOLLOUT.rawValue
        } else if case .responding = phase {
            wanted = 0
        } else {
            wanted = EPOLLIN.rawValue
        }
        if wanted != interest || handshaking {
            interest = wanted
            loop.watch(fd, events: wanted)
        }
    }

    /// Closes the socket and forgets the connection.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        loop.remove(self)
    }
}
