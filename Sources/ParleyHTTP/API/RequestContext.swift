public import Logging

/// What a responder knows about a request beyond the request itself.
public struct RequestContext: Sendable {
    /// What every request on one connection shares (the server's logger, the peer, TLS or not),
    /// made once when the connection is accepted: the context is copied down the middleware
    /// chain, and one object costs one reference count per copy where the logger's handler and
    /// label and the peer's address cost one each.
    final class Shared: Sendable {
        let logger: Logger
        let remoteAddress: String
        let isSecure: Bool
        let loopIndex: Int

        init(logger: Logger, remoteAddress: String, isSecure: Bool, loopIndex: Int = 0) {
            self.logger = logger
            self.remoteAddress = remoteAddress
            self.isSecure = isSecure
            self.loopIndex = loopIndex
        }

        /// A copy with one part changed (a setter below: rare, never on the request path).
        func with(logger: Logger? = nil, remoteAddress: String? = nil, isSecure: Bool? = nil) -> Shared {
            Shared(
                logger: logger ?? self.logger, remoteAddress: remoteAddress ?? self.remoteAddress,
                isSecure: isSecure ?? self.isSecure, loopIndex: loopIndex)
        }
    }

    private var shared: Shared

    /// The server's logger; ``requestLogger`` adds the request's id.
    public var logger: Logger {
        _read { yield shared.logger }
        set { shared = shared.with(logger: newValue) }
    }
    /// The peer's address as `host:port`.
    public var remoteAddress: String {
        _read { yield shared.remoteAddress }
        set { shared = shared.with(remoteAddress: newValue) }
    }
    /// Whether the request arrived over TLS.
    public var isSecure: Bool {
        _read { yield shared.isSecure }
        set { shared = shared.with(isSecure: newValue) }
    }
    /// The index of the event loop (its thread) that read the request; 0 for a request that
    /// reached no loop (the socketless client). A shard key: state that every request writes
    /// (counters, hot-entry memos) is kept per loop, so two loops' requests never write the same
    /// cache line, which costs a transfer between cores on every request where two loops share it.
    public var loopIndex: Int { shared.loopIndex }
    /// Path parameters bound by the router (`{id}` → value), percent-decoded.
    public var parameters: PathParameters
    /// The id that ties this request's log lines to its response (`X-Request-Id`), once a
    /// middleware has chosen one. Kept apart from ``logger`` so a request that logs nothing (a
    /// cache-hot screen on the loop) pays no metadata copy for it.
    public var requestId: String?

    /// ``logger`` with `request_id` in its metadata when the request has one: for log lines
    /// about this request.
    public var requestLogger: Logger {
        guard let requestId else { return logger }
        var logger = logger
        logger[metadataKey: "request_id"] = .string(requestId)
        return logger
    }

    /// Creates a context.
    public init(
        logger: Logger, remoteAddress: String = "", isSecure: Bool = false,
        parameters: PathParameters = PathParameters()
    ) {
        shared = Shared(logger: logger, remoteAddress: remoteAddress, isSecure: isSecure)
        self.parameters = parameters
    }

    /// A context for one request on a connection whose shared part is made already.
    init(shared: Shared, parameters: PathParameters) {
        self.shared = shared
        self.parameters = parameters
    }
}

/// Values bound to `{name}` segments of a route pattern.
public struct PathParameters: Sendable, Hashable {
    private var storage: [(String, String)] = []

    /// No parameters.
    public init() {}

    /// Same names bound to the same values, in the same order.
    public static func == (lhs: PathParameters, rhs: PathParameters) -> Bool {
        lhs.storage.elementsEqual(rhs.storage, by: { $0 == $1 })
    }

    /// Hashes the bindings in order.
    public func hash(into hasher: inout Hasher) {
        for (name, value) in storage {
            hasher.combine(name)
            hasher.combine(value)
        }
    }

    /// The value bound to `name`, or nil.
    public subscript(name: String) -> String? { storage.first { $0.0 == name }?.1 }

    /// The value bound to `name` as a decimal integer, or nil when absent or not a number.
    public func integer(_ name: String) -> Int? { self[name].flatMap { Int($0) } }

    mutating func bind(_ name: String, _ value: String) { storage.append((name, value)) }
}
