import Glibc

extension HTTPServer {
    /// Starts the responder threads and binds nothing, so ``respond(to:remoteAddress:)`` can
    /// answer requests handed over as values (HummingbirdTesting's `.router` mode): tests of the
    /// API run the real responder chain without a socket. Stop it with ``shutdown(deadline:)``.
    public func startWithoutSocket() {
        let first = socketless.withLock { log in
            defer { if log == nil { log = AccessLog(configuration: core.configuration) } }
            return log == nil
        }
        if first { core.responderPool.start(threads: core.configuration.responderThreads) }
    }

    /// Answers `request` as a connection of this server would, minus the bytes: the route is
    /// matched once, a body over its limit is refused with the connection's 413, the inline fast
    /// path is tried first, else the route's responder runs on the responder threads; a thrown
    /// error becomes its response in the server's one place, and the exchange is access-logged.
    /// Framing (`Date`, `Content-Length`, `Connection`) and streams belong to the wire: a
    /// streaming response comes back with its stream ended. Call ``startWithoutSocket()`` first.
    public func respond(to request: HTTPRequest, remoteAddress: String = "127.0.0.1:0") async -> HTTPResponse {
        let core = core
        let startedAt = Syscall.monotonicNanoseconds()
        let route = core.responder(loop: 0).route(for: request)
        let context = RequestContext(logger: core.logger, remoteAddress: remoteAddress)
        let response: HTTPResponse
        if request.body.count > route.maxBodyBytes ?? core.configuration.maxBodyBytes {
            response = HTTPError(parseError: .bodyTooLarge).response
        } else {
            switch route.respondInline(to: request, context: context) {
            case .now(let answer): response = answer
            case .offLoop(let work):
                response = await withTaskExecutorPreference(core.responderPool) {
                    await HTTPNext.settle(work, request, context)
                }
            }
        }
        response.stream?.end()
        if core.logsAccess {
            socketless.withLock { log in
                log?.record(
                    time: DateCache.logTime(time(nil)), method: request.method, path: request.path,
                    status: response.status.code, bytes: response.body.count,
                    nanoseconds: Syscall.monotonicNanoseconds() - startedAt, peer: remoteAddress,
                    requestId: response.headers["X-Request-Id"], now: startedAt)
                log?.flush()
            }
        }
        return response
    }
}
