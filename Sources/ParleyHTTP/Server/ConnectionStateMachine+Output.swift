extension ConnectionStateMachine {
    /// The responder's answer to the request in `.responding`: queued for writing. Returns the
    /// exchange it answers and the body bytes queued (for the access log), or nil when no request
    /// waits for it. A response with a stream opens it, unless the request was HEAD or the
    /// server is draining (the caller then ends the stream unused).
    mutating func respond(_ response: HTTPResponse, date: [UInt8], draining: Bool, now: UInt64)
        -> (exchange: Exchange, bytes: Int)?
    {
        guard case .responding = phase, let exchange = self.exchange.take() else { return nil }
        lastActivity = now
        let headOnly = exchange.request.method == "HEAD"
        if let stream = response.stream, !headOnly, !draining, !response.status.forbidsBody {
            output.appendOwned { ResponseEncoder.encodeStreamHead(response, into: &$0, date: date) }
            phase = .streaming(stream)
            input = []  // a stream reads nothing more
            return (exchange, 0)
        }
        let keepAlive = exchange.keepAlive && !draining
        let bytes = ResponseEncoder.encode(
            response, into: &output, date: date, keepAlive: keepAlive, announceKeepAlive: exchange.announceKeepAlive,
            headOnly: headOnly)
        phase = keepAlive ? .idle : .closing
        return (exchange, bytes)
    }

    /// Chunks the open stream produced, each a whole event: queued for writing. `ended` means the
    /// producer finished (or overflowed its own queue): the connection closes once they are
    /// written. A reader that lets the output grow past the stream's `maxQueuedBytes` is cut off, so a
    /// slow client can never grow the server's memory.
    mutating func streamed(_ chunks: [[UInt8]], ended: Bool) -> Action {
        guard case .streaming(let stream) = phase else { return .none }
        for chunk in chunks { output.appendBody(chunk) }
        if output.pendingBytes > stream.maxQueuedBytes { return .close }
        if ended { phase = .closing }
        return output.isEmpty ? (ended ? .linger : .none) : .flush
    }

    /// Writes pending output through `write` (one `writev`/`send` per call, done by the I/O side)
    /// until it is empty or the socket is full.
    mutating func flush(now: UInt64, _ write: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) -> IOStatus)
        -> Action
    {
        let status = output.drain { first, second in
            let status = write(first, second)
            if case .bytes = status { lastActivity = now }
            return status
        }
        switch status {
        case .done: break
        case .closed, .failed: return .close
        default: return .none
        }
        switch phase {
        case .closing: return .linger
        case .streaming: output.releaseSpare()  // idle streams hold a descriptor, not buffers
        default: break
        }
        return .none
    }

    /// The final response is written and the write side shut: input is discarded until EOF or the
    /// linger deadline.
    mutating func startLingering(now: UInt64) {
        phase = .lingering
        phaseStart = now
        input = []
    }

    /// The client finished sending (EOF or TLS close_notify); the caller has already parsed what it
    /// sent. A request in flight is still answered, then the connection closes.
    mutating func inputEnded() -> Action {
        switch phase {
        case .responding:
            exchange?.keepAlive = false
            return .none
        case .closing:
            return .none
        case .lingering, .streaming:
            return .close  // a stream's reader is gone
        case .idle, .head, .body:
            if output.isEmpty { return .close }
            phase = .closing
            return .none
        }
    }

    /// A timer tick: enforces the timeouts and keeps an idle stream alive with its heartbeat.
    mutating func tick(now: UInt64, date: [UInt8], handshaking: Bool) -> Action {
        if !output.isEmpty {
            return now - lastActivity > limits.writeTimeout ? .close : .none
        }
        switch phase {
        case .idle:
            let limit = handshaking ? limits.headerReadTimeout : limits.keepAliveIdleTimeout
            return now - lastActivity > limit ? .close : .none
        case .head:
            guard now - phaseStart > limits.headerReadTimeout else { return .none }
            fail(HTTPParseError(status: 408, reason: "The request head did not arrive in time."), date: date)
            return .flush
        case .body:
            guard now - lastActivity > limits.bodyIdleTimeout else { return .none }
            fail(HTTPParseError(status: 408, reason: "The request body stalled."), date: date)
            return .flush
        case .streaming(let stream):
            guard now - lastActivity > limits.streamHeartbeatInterval, !stream.heartbeat.isEmpty else { return .none }
            output.appendOwned { $0.append(contentsOf: stream.heartbeat) }
            return .flush
        case .lingering:
            return now - phaseStart > limits.closeLingerTimeout ? .close : .none
        case .responding, .closing:
            return .none
        }
    }

    /// The server drains: an idle connection closes now; an open stream stops taking chunks and
    /// closes once what it took is written — every chunk is a whole event, so the client sees the
    /// stream end at an event boundary. A request in flight is answered with `Connection: close`.
    mutating func shutdown() -> Action {
        if isIdle { return .close }
        guard case .streaming = phase else { return .none }
        phase = .closing
        return output.isEmpty ? .linger : .flush
    }
}
