import Dispatch
import Foundation
import Glibc
public import Logging
import Synchronization

/// An HTTP/1.1 server on POSIX sockets and epoll: one loop thread per core, each with its own
/// listening socket (SO_REUSEPORT). Inline responders run on the loop; others run as tasks
/// and hand their response back through the loop's eventfd.
public final class HTTPServer: Sendable {
    let core: ServerCore
    private let state = Mutex<(port: Int?, handles: [LoopHandle])>((nil, []))
    /// The access log of ``respond(to:remoteAddress:)`` once ``startWithoutSocket()`` ran.
    let socketless = Mutex<AccessLog?>(nil)

    /// Creates a server; nothing is bound until `start()`. Throws when the TLS files are unusable.
    public convenience init(configuration: HTTPServerConfiguration, responder: any HTTPResponder, logger: Logger)
        throws
    {
        try self.init(configuration: configuration, responders: { _ in responder }, logger: logger)
    }

    /// Creates a server whose every event loop gets its own responder, `makeResponder(index)`
    /// for loop `index`: a router built once per loop keeps the objects each request retains
    /// and releases (its routes' closures) apart from the other loops', where one shared router
    /// moved their reference counts' cache lines between cores on every request.
    public init(
        configuration: HTTPServerConfiguration, responders makeResponder: (Int) -> any HTTPResponder,
        logger: Logger
    ) throws {
        let tls = try configuration.tls.map { configuration throws(SocketError) in try TLSContext(configuration) }
        let responders = (0..<max(1, configuration.loopThreads)).map(makeResponder)
        core = ServerCore(configuration: configuration, responders: responders, logger: logger, tls: tls)
    }

    /// The configuration in use.
    public var configuration: HTTPServerConfiguration { core.configuration }

    /// The bound port once started.
    public var port: Int? { state.withLock { $0.port } }

    /// How many connections each loop serves (tests check that loops share them evenly).
    var loopConnectionCounts: [Int] {
        state.withLock { $0.handles.map { $0.connectionCount.load(ordering: .relaxed) } }
    }

    /// Binds, starts the loop threads and returns the bound port (useful with port 0).
    @discardableResult
    public func start() throws -> Int {
        let configuration = core.configuration
        guard state.withLock({ $0.port == nil }) else { throw SocketError.state("the server is already started") }
        // OpenSSL writes with write(2), which raises SIGPIPE on a reset connection; plain sockets
        // use MSG_NOSIGNAL. A server must survive a client vanishing.
        signal(SIGPIPE, SIG_IGN)
        var port = configuration.port
        var listeners: [Int32] = []
        do {
            // SO_REUSEPORT would let this server silently share a port with another process of
            // the same user: a probe bound without it fails if anything holds a port asked for.
            // Port 0 needs no probe, and must not have one: the kernel picks a port nobody holds
            // for the first listener, which keeps it. A probe closed before the listeners bind
            // left the port free for a moment, and another server starting then could pick it
            // too; both bound it with SO_REUSEPORT, and the kernel spread each one's new
            // connections over both (a full test suite saw resets from a neighbour's shutdown).
            if port != 0 {
                let probe = try Syscall.listen(
                    host: configuration.host, port: port, backlog: 1, reusePort: false)
                _ = consume probe
            }
            for _ in 0..<max(1, configuration.loopThreads) {
                let listener = try Syscall.listen(
                    host: configuration.host, port: port, backlog: configuration.backlog)
                port = try Syscall.boundPort(listener.rawValue)
                listeners.append(listener.release())
            }
        } catch {
            for raw in listeners { Syscall.close(raw) }
            throw error
        }
        core.responderPool.start(threads: configuration.responderThreads)
        var handles: [LoopHandle] = []
        for _ in listeners { handles.append(try LoopHandle(fallback: core.responderPool)) }
        for (index, raw) in listeners.enumerated() {
            let handle = handles[index]
            let peers = handles
            let core = core
            // The loop is built on its own thread, which then owns it; only the handles are shared.
            let thread = Thread {
                Thread.current.name = "parley-http-\(index)"
                do {
                    try EventLoop(core: core, index: index, handle: handle, peers: peers, listener: raw).run()
                } catch {
                    core.logger.critical("event loop failed to start", metadata: ["error": "\(error)"])
                    handle.markFinished()
                }
            }
            thread.start()
        }
        state.withLock {
            $0.port = port
            $0.handles = handles
        }
        return port
    }

    /// Stops accepting, lets in-flight requests finish (their responses say `Connection:
    /// close`), closes idle connections, and returns once every loop has exited; connections
    /// still busy at `deadline` are closed.
    public func shutdown(deadline: Duration) async {
        let handles = state.withLock { $0.handles }
        let until = Syscall.monotonicNanoseconds() + deadline.nanoseconds
        for handle in handles { handle.post(.drain(deadline: until)) }
        for handle in handles { await handle.waitUntilFinished() }
        let respondedWithoutSocket = socketless.withLock { log in
            defer { log = nil }
            log?.flush()
            return log != nil
        }
        if !handles.isEmpty || respondedWithoutSocket { core.responderPool.stop() }
    }

    /// Starts the server, logs `listening on HOST:PORT`, waits for SIGTERM or SIGINT, then shuts
    /// down gracefully within `configuration.shutdownDeadline`. Signal handling is armed before
    /// the server starts, so a signal sent as soon as the port is announced is never lost.
    public func run() async throws {
        let signals = TerminationSignals.arm()
        let port = try start()
        core.logger.notice("listening on \(core.configuration.host):\(port)")
        let received = await signals.wait()
        core.logger.notice("received \(received), shutting down")
        await shutdown(deadline: core.configuration.shutdownDeadline)
        core.logger.notice("stopped")
    }
}
