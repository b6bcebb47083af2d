import Glibc
import Logging
import Synchronization

/// What every event loop of one server shares; immutable apart from the atomic connection count.
final class ServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    /// The per-connection limits, converted once.
    let limits: ConnectionLimits
    /// One responder per event loop (index), each built by the server's owner for that loop:
    /// the closures and objects a request walks through are then the loop's own, and the
    /// reference counts every request takes on them stay on its core's cache lines.
    let responders: [any HTTPResponder]
    let logger: Logger
    let tls: TLSContext?
    let responderPool: ResponderThreadPool
    let openConnections = Atomic<Int>(0)
    let nextConnectionID = Atomic<UInt64>(1)

    init(
        configuration: HTTPServerConfiguration, responders: [any HTTPResponder], logger: Logger, tls: TLSContext?
    ) {
        precondition(!responders.isEmpty, "a server needs a responder")
        self.configuration = configuration
        limits = ConnectionLimits(configuration)
        self.responders = responders
        self.logger = logger
        self.tls = tls
        responderPool = ResponderThreadPool()
        logsAccess = configuration.accessLog && logger.logLevel <= .info
    }

    /// The responder of loop `index` (the first for a request that reached no loop).
    func responder(loop index: Int) -> any HTTPResponder { responders[index % responders.count] }

    /// Whether access-log lines would be emitted, checked before building one.
    let logsAccess: Bool
}
