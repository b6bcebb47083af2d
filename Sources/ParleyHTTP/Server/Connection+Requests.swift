extension Connection {
    /// Parses and answers buffered requests in order until one needs more bytes or goes off the
    /// loop; pipelined requests answered inline leave together in one write.
    func advance() {
        repeat {
            parseAndAnswer()
            if !isClosed { flush() }
        } while !isClosed && machine.pausedForOutput && machine.output.isEmpty
    }

    private func parseAndAnswer() {
        // The loop, not its responder: copying the responder out of its existential box retained
        // and released the router's tables on every request.
        let loop = loop
        while !isClosed {
            let step = machine.advance(now: loop.now, date: loop.dateCache.line) { loop.responder.route(for: $0) }
            switch step {
            case .wait: break
            case .dispatch(let exchange): if dispatch(exchange) { continue }
            case .rejected(let status, let bytes):
                if loop.core.logsAccess {
                    loop.logAccess(method: "-", path: "-", status: status, bytes: bytes, nanoseconds: 0, peer: peer)
                }
                continue
            }
            break
        }
    }

    /// Runs the route on the loop: answers now when it can (returns true: parsing may go on);
    /// otherwise hands its off-loop work to a task and returns false.
    private func dispatch(_ exchange: Exchange) -> Bool {
        let context = RequestContext(shared: contextShared, parameters: exchange.route.parameters)
        switch exchange.route.respondInline(to: exchange.request, parameterized: context) {
        case .now(let response):
            finish(with: response)
            return true
        case .offLoop(let work):
            loop.respondOffLoop(
                work, for: exchange.request, context: context, fd: fd, id: id,
                here: exchange.route.runsOnLoop(exchange.request))
            return false
        }
    }

    /// Receives an off-loop response.
    func deliver(_ response: HTTPResponse) {
        finish(with: response)
        advance()
        if !isClosed { updateInterest() }
    }

    /// Queues `response` for the request being answered, opens its stream if it has one, and
    /// logs the exchange.
    private func finish(with response: HTTPResponse) {
        guard
            let (exchange, bytes) = machine.respond(
                response, date: loop.dateCache.line, draining: loop.draining, now: loop.now)
        else {
            response.stream?.end()
            return
        }
        if let offered = response.stream {
            if machine.stream === offered {
                stream = offered
                offered.attach(to: loop.handle, fd: fd, connection: id)
            } else {
                offered.end()  // HEAD, a bodiless status, or the server is draining
            }
        }
        if loop.core.logsAccess {
            loop.logAccess(
                method: exchange.request.method, path: exchange.request.path, status: response.status.code,
                bytes: bytes, nanoseconds: Syscall.monotonicNanoseconds() - exchange.startedAt, peer: peer,
                requestId: response.headers["X-Request-Id"])
        }
    }

    /// Takes the chunks the stream's producer queued and writes them (called after the stream
    /// woke the loop).
    func pumpStream() {
        guard let stream else { return }
        let taken = stream.take()
        perform(machine.streamed(taken.chunks, ended: taken.ended))
        if !isClosed { updateInterest() }
    }
}
