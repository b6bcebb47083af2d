/// The protocol logic of one HTTP/1.1 connection as a value (Hummingbird's
/// `HTTPConnectionStateHandler` is the model): it takes events — bytes read, a response ready,
/// stream chunks, bytes written, a timer tick, shutdown — and answers with what the I/O side must
/// do next. It owns the unconsumed input and the pending output but never touches a socket, so
/// every transition is tested by feeding bytes (`ConnectionStateMachineTests`).
struct ConnectionStateMachine {
    /// Where the connection is in its request cycle.
    enum Phase {
        /// Between requests, nothing received yet.
        case idle
        /// Part of a head received since `phaseStart`.
        case head
        /// Head parsed, body being received into ``exchange``.
        case body
        /// A responder is working on ``exchange``.
        case responding
        /// A streaming response is open; its body is written chunk by chunk until it ends.
        case streaming(ResponseStream)
        /// Flushing a final response, then closing.
        case closing
        /// Final response sent and write side shut; discarding input until EOF or the deadline,
        /// so a client still sending does not get a reset that destroys the response.
        case lingering
    }

    /// What the I/O side does after `advance`.
    enum Step {
        /// Nothing to parse until more bytes arrive, a response is ready or output drains.
        case wait
        /// A complete request: answer it (inline, or off the loop, then `respond`).
        case dispatch(Exchange)
        /// A malformed request: its error response is queued and the connection closes after it.
        case rejected(status: Int, bytes: Int)
    }

    /// What the I/O side does after a write, a timer tick or shutdown.
    enum Action: Equatable {
        /// Nothing.
        case none
        /// Write the pending output.
        case flush
        /// Everything is written: shut the write side and linger.
        case linger
        /// Close the socket now.
        case close
    }

    /// Which readiness the socket should be watched for.
    enum Interest: Equatable {
        case read
        case write
        case none
    }

    let limits: ConnectionLimits
    var phase = Phase.idle
    /// The request being read (`.body`) or answered (`.responding`). Kept beside the phase, not in
    /// it: matching a phase that carried it copied the whole request, several times per request.
    var exchange: Exchange?
    var input: [UInt8] = []
    /// Bytes lent by ``lend(_:now:)``, valid only until ``advance(now:date:route:)`` returns: it
    /// parses a head in them where they lie and keeps what it did not consume in ``input``.
    private var lent: UnsafeBufferPointer<UInt8>?
    /// How far the head at the front of `input` has been validated; parsing resumes there.
    private var headScanner: HTTPHeadScanner
    var output = OutputQueue()
    /// Parsing stopped because answers to a pipelining client piled up: it resumes once they are
    /// written, even if no new bytes arrive.
    private(set) var pausedForOutput = false
    /// Monotonic time of the last byte moved either way.
    var lastActivity: UInt64
    /// Monotonic time the current phase began (head reading, lingering).
    var phaseStart: UInt64

    init(limits: ConnectionLimits, now: UInt64) {
        self.limits = limits
        headScanner = HTTPHeadScanner(limits: limits.parser)
        lastActivity = now
        phaseStart = now
    }

    /// Idle between requests with nothing left to send, or done and lingering: safe to close on shutdown.
    var isIdle: Bool {
        switch phase {
        case .lingering: true
        case .idle: input.isEmpty && output.isEmpty
        default: false
        }
    }

    /// The stream being written, if any.
    var stream: ResponseStream? {
        if case .streaming(let stream) = phase { return stream }
        return nil
    }

    /// Whether input is thrown away (lingering after a final response).
    var discardsInput: Bool {
        if case .lingering = phase { return true }
        return false
    }

    /// What to watch for: output space while anything is pending; nothing while a responder works
    /// (so a pipelining client cannot grow the input meanwhile); input otherwise.
    var interest: Interest {
        if !output.isEmpty { return .write }
        if case .responding = phase { return .none }
        return .read
    }

    /// Bytes arrived.
    mutating func received(_ bytes: UnsafeRawBufferPointer, now: UInt64) {
        lastActivity = now
        if case .lingering = phase { return }
        if case .streaming = phase { return }  // a streaming response reads nothing more
        input.append(contentsOf: bytes)
    }

    /// Bytes that arrived and that the caller passes to ``advance(now:date:route:)`` before it
    /// reuses their memory (the event loop's read buffer). Between requests, with nothing
    /// buffered, the next head is parsed in them in place: it is neither copied into nor
    /// cleared out of ``input``, whose memory is cold when hundreds of connections are open.
    mutating func lend(_ bytes: UnsafeRawBufferPointer, now: UInt64) {
        guard case .idle = phase, input.isEmpty, lent == nil, !bytes.isEmpty else { return received(bytes, now: now) }
        lastActivity = now
        lent = bytes.bindMemory(to: UInt8.self)
    }

    /// Moves lent bytes from `offset` on into ``input``; they are not readable after
    /// ``advance(now:date:route:)``.
    private mutating func keepLent(from offset: Int = 0) {
        guard let bytes = lent else { return }
        lent = nil
        if offset < bytes.count { input.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset...])) }
    }

    /// Whether enough input is buffered that reading should pause until it is parsed.
    func inputIsFull(chunk: Int) -> Bool { input.count > chunk * 2 }

    /// Parses buffered requests until one is complete (`.dispatch`) or more is needed (`.wait`).
    /// `route` matches a request from its head, once, before any body byte is read.
    mutating func advance(now: UInt64, date: [UInt8], route: (HTTPRequest) -> HTTPRoute) -> Step {
        pausedForOutput = false
        defer { keepLent() }
        while true {
            switch phase {
            case .idle, .head:
                // A pipelining client must read its answers before more of its requests are parsed.
                if output.pendingBytes > limits.maxQueuedResponseBytes {
                    pausedForOutput = true
                    return .wait
                }
                guard !input.isEmpty || lent != nil else {
                    phase = .idle
                    return .wait
                }
                var consumed = 0
                do {
                    // Bound straight from the parser's result and handed on: a head held in a
                    // variable first was copied and destroyed (callgrind).
                    guard let head = try parseHead(consumed: &consumed) else {
                        // Incomplete: the scanner resumes over the same bytes, now in `input`.
                        keepLent()
                        if case .idle = phase {
                            phase = .head
                            phaseStart = now
                        }
                        return .wait
                    }
                    if lent != nil { keepLent(from: consumed) } else { consume(consumed) }
                    headScanner = HTTPHeadScanner(limits: headScanner.limits)
                    try begin(head, now: now, route: route)
                } catch {
                    lent = nil  // the connection closes after the error response: nothing more is read
                    return reject(error, date: date)
                }
            case .body:
                guard let current = self.exchange.take() else { preconditionFailure("a body without its exchange") }
                do { try readBody(into: current) } catch {
                    return reject(error, date: date)
                }
                guard current.bodyComplete else {
                    exchange = current
                    return .wait
                }
                phase = .responding
                exchange = current
                return .dispatch(current)
            case .responding, .streaming, .closing, .lingering:
                return .wait
            }
        }
    }

    /// The head at the front of the lent bytes or of ``input``, with its length in `consumed`;
    /// nil while it is incomplete.
    private mutating func parseHead(consumed: inout Int) throws(HTTPParseError) -> HTTPRequestHead? {
        let parser = HTTPHeadParser(limits: headScanner.limits)
        if let bytes = lent { return try parser.parseHead(bytes, resuming: &headScanner, consumed: &consumed) }
        return try input.withUnsafeBufferPointer { bytes throws(HTTPParseError) in
            try parser.parseHead(bytes, resuming: &headScanner, consumed: &consumed)
        }
    }

    /// Drops consumed input; a large buffer is released rather than pinned for the connection's life.
    private mutating func consume(_ count: Int) {
        if count < input.count {
            input.removeFirst(count)
        } else if input.capacity > 64 * 1024 {
            input = []
        } else {
            input.removeAll(keepingCapacity: true)
        }
    }

    /// Derives framing, asks for the route (and so the body limit) before any body byte is read,
    /// and queues `100 Continue` when the client waits for it (RFC 9110 §10.1.1).
    private mutating func begin(
        _ head: consuming HTTPRequestHead, now: UInt64, route match: (HTTPRequest) -> HTTPRoute
    ) throws(HTTPParseError) {
        let framing = try RequestFraming(head: head)
        let target = try RequestTarget(head.target)
        let version = head.version
        let request = HTTPRequest(head: head, target: target)
        let route = match(request)
        let limit = route.maxBodyBytes ?? limits.maxBodyBytes
        let exchange = Exchange(
            request: request, route: route, keepAlive: framing.keepAlive,
            announceKeepAlive: framing.keepAlive && version == .http1_0, startedAt: now)
        switch framing.body {
        case .none: break
        case .length(let length):
            if length > limit { throw .bodyTooLarge }
            exchange.remaining = length
            exchange.request.body.reserveCapacity(length)
        case .chunked:
            exchange.decoder = ChunkedDecoder(limits: limits.parser, maxBodyBytes: limit)
        }
        if framing.expectContinue && input.isEmpty {
            output.appendOwned { $0.append(contentsOf: ResponseEncoder.continueLine) }
        }
        phase = .body
        self.exchange = exchange
        lastActivity = now
    }

    private mutating func readBody(into exchange: Exchange) throws(HTTPParseError) {
        if exchange.decoder != nil {
            let consumed = try input.withUnsafeBufferPointer { bytes throws(HTTPParseError) in
                try exchange.decoder!.decode(bytes, into: &exchange.request.body)
            }
            consume(consumed)
        } else if exchange.remaining > 0 {
            let take = min(exchange.remaining, input.count)
            exchange.request.body.append(contentsOf: input[0..<take])
            exchange.remaining -= take
            consume(take)
        }
    }

    private mutating func reject(_ error: HTTPParseError, date: [UInt8]) -> Step {
        .rejected(status: error.status, bytes: fail(error, date: date))
    }

    /// Queues a malformed request's error response and closes after it (RFC 9112 §2.2); returns
    /// the body bytes queued.
    @discardableResult
    mutating func fail(_ error: HTTPParseError, date: [UInt8]) -> Int {
        let response = HTTPError(parseError: error).response
        let bytes = ResponseEncoder.encode(
            response, into: &output, date: date, keepAlive: false, announceKeepAlive: false,
            headOnly: false)
        input = []
        exchange = nil
        phase = .closing
        return bytes
    }

    /// Marks activity without bytes (a finished TLS handshake starts the keep-alive clock).
    mutating func touch(now: UInt64) { lastActivity = now }
}

/// The limits one connection enforces, copied once from `HTTPServerConfiguration` (every value
/// is documented there).
struct ConnectionLimits: Sendable {
    var parser: HTTPParserLimits
    var maxBodyBytes: Int
    var maxQueuedResponseBytes: Int
    var headerReadTimeout: UInt64
    var bodyIdleTimeout: UInt64
    var keepAliveIdleTimeout: UInt64
    var writeTimeout: UInt64
    var closeLingerTimeout: UInt64
    var streamHeartbeatInterval: UInt64

    init(_ configuration: HTTPServerConfiguration) {
        parser = configuration.parserLimits
        maxBodyBytes = configuration.maxBodyBytes
        maxQueuedResponseBytes = configuration.maxQueuedResponseBytes
        headerReadTimeout = configuration.headerReadTimeout.nanoseconds
        bodyIdleTimeout = configuration.bodyIdleTimeout.nanoseconds
        keepAliveIdleTimeout = configuration.keepAliveIdleTimeout.nanoseconds
        writeTimeout = configuration.writeTimeout.nanoseconds
        closeLingerTimeout = configuration.closeLingerTimeout.nanoseconds
        streamHeartbeatInterval = configuration.streamHeartbeatInterval.nanoseconds
    }
}
