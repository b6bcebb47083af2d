import Logging

extension Connection {
    /// Parses and answers buffered requests in order until one needs more bytes or goes off the
    /// loop; pipelined requests answered inline leave together in one write.
    func advance() {
        defer { if !isClosed { flush() } }
        while !isClosed {
            switch phase {
            case .idle, .head:
                if output.pendingBytes > loop.core.configuration.maxQueuedResponseBytes {
                    flush()  // a pipelining client must read before more requests are parsed
                    if isClosed || !output.isEmpty { return }
                }
                guard !input.isEmpty else {
                    phase = .idle
                    return
                }
                let result: HTTPHeadParser.Result
                do {
                    result = try input.withUnsafeBufferPointer { bytes throws(HTTPParseError) in
                        try HTTPHeadParser(limits: headScanner.limits).parse(bytes, resuming: &headScanner)
                    }
                } catch { return fail(error) }
                guard case .complete(let head, let consumed) = result else {
                    if case .idle = phase {
                        phase = .head
                        phaseStart = loop.now
                    }
                    return
                }
                consume(consumed)
                headScanner = HTTPHeadScanner(limits: headScanner.limits)
                do { try begin(head) } catch { return fail(error) }
            case .body(var exchange):
                do { try readBody(into: &exchange) } catch { return fail(error) }
                guard exchange.bodyComplete else {
                    phase = .body(exchange)
                    return
                }
                dispatch(exchange)
            case .responding, .closing, .lingering:
                return
            }
        }
    }

    private func consume(_ count: Int) {
        if count < input.count {
            input.removeFirst(count)
        } else if input.capacity > 64 * 1024 {
            input = []  // a large request must not pin its buffer for the connection's lifetime
        } else {
            input.removeAll(keepingCapacity: true)
        }
    }

    /// Derives framing, asks the responder for the body limit (before any body byte is read),
    /// and sends `100 Continue` when the client waits for it (RFC 9110 §10.1.1).
    private func begin(_ head: HTTPRequestHead) throws(HTTPParseError) {
        let framing = try RequestFraming(head: head)
        let target = try RequestTarget(head.target)
        let request = HTTPRequest(
            method: head.method, target: head.target, parsed: target, version: head.version, headers: head.headers,
            body: [])
        let configuration = loop.core.configuration
        let route = loop.core.responder.route(for: request)  // the one match of this request
        let limit = route.maxBodyBytes ?? configuration.maxBodyBytes
        var exchange = Exchange(
            request: request, route: route, keepAlive: framing.keepAlive,
            announceKeepAlive: framing.keepAlive && head.version == .http1_0, remaining: 0, decoder: nil,
            startedAt: loop.now)
        switch framing.body {
        case .none: break
        case .length(let length):
            if length > limit { throw .bodyTooLarge }
            exchange.remaining = length
            exchange.request.body.reserveCapacity(length)
        case .chunked:
            exchange.decoder = ChunkedDecoder(limits: configuration.parserLimits, maxBodyBytes: limit)
        }
        if framing.expectContinue && input.isEmpty {
            output.appendOwned { $0.append(contentsOf: ResponseEncoder.continueLine) }
        }
        phase = .body(exchange)
        lastActivity = loop.now
    }

    private func readBody(into exchange: inout Exchange) throws(HTTPParseError) {
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

    /// Answers inline when the responder can; otherwise hands the request to a task.
    private func dispatch(_ exchange: Exchange) {
        let context = RequestContext(
            logger: loop.core.logger, remoteAddress: peer, isSecure: tls != nil, parameters: exchange.route.parameters)
        let response: HTTPResponse?
        do {
            response = try exchange.route.inline?(exchange.request, context)
        } catch {
            response = loop.core.response(for: error, method: exchange.request.method, path: exchange.request.path)
        }
        if let response { return finish(exchange, with: response) }
        phase = .responding(exchange)
        loop.respondOffLoop(exchange.request, through: exchange.route.responder, context: context, fd: fd, id: id)
    }

    /// Receives an off-loop response.
    func deliver(_ response: HTTPResponse) {
        guard case .responding(let exchange) = phase else { return }
        finish(exchange, with: response)
        advance()
        if !isClosed { updateInterest() }
    }

    private func finish(_ exchange: Exchange, with response: HTTPResponse) {
        let keepAlive = exchange.keepAlive && !loop.draining
        let bytes = ResponseEncoder.encode(
            response, into: &output, date: loop.dateCache.line, keepAlive: keepAlive,
            announceKeepAlive: exchange.announceKeepAlive, headOnly: exchange.request.method == "HEAD")
        if loop.core.logsAccess {
            loop.logAccess(
                method: exchange.request.method, path: exchange.request.path, status: response.status.code,
                bytes: bytes, nanoseconds: Syscall.monotonicNanoseconds() - exchange.startedAt, peer: peer,
                requestId: response.headers["X-Request-Id"])
        }
        phase = keepAlive ? .idle : .closing
        lastActivity = loop.now
    }

    /// Answers a malformed request with its status and closes (RFC 9112 §2.2).
    func fail(_ error: HTTPParseError) {
        let response = HTTPError(parseError: error).response
        _ = ResponseEncoder.encode(
            response, into: &output, date: loop.dateCache.line, keepAlive: false, announceKeepAlive: false,
            headOnly: false)
        if loop.core.logsAccess {
            loop.logAccess(
                method: "-", path: "-", status: error.status, bytes: response.body.count, nanoseconds: 0, peer: peer)
        }
        input = []
        phase = .closing
    }

    /// Enforces the configured timeouts; called by the loop every tick.
    func checkTimeout() {
        let configuration = loop.core.configuration
        let now = loop.now
        if !output.isEmpty {
            if now - lastActivity > configuration.writeTimeout.nanoseconds { close() }
            return
        }
        switch phase {
        case .idle:
            let limit = handshaking ? configuration.headerReadTimeout : configuration.keepAliveIdleTimeout
            if now - lastActivity > limit.nanoseconds { close() }
        case .head:
            if now - phaseStart > configuration.headerReadTimeout.nanoseconds {
                fail(HTTPParseError(status: 408, reason: "The request head did not arrive in time."))
                flush()
                if !isClosed { updateInterest() }
            }
        case .body:
            if now - lastActivity > configuration.bodyIdleTimeout.nanoseconds {
                fail(HTTPParseError(status: 408, reason: "The request body stalled."))
                flush()
                if !isClosed { updateInterest() }
            }
        case .lingering:
            if now - phaseStart > configuration.closeLingerTimeout.nanoseconds { close() }
        case .responding, .closing:
            break
        }
    }
}
