import CLibPQ
import Foundation
import Glibc
public import Logging
import Synchronization

/// Receives `LISTEN`/`NOTIFY` notifications on one dedicated connection.
///
/// A background thread waits on the connection's socket and fans notifications out to every
/// stream subscribed to their channel. When the connection breaks the thread reconnects,
/// listens again, and sends each stream a ``PostgresNotification/isReconnect`` marker.
/// The thread runs until ``shutdown()`` (``PostgresPool`` calls it for the listener it owns).
/// A subscriber that only updates memory can instead take notifications on that thread
/// (``subscribe(channel:handler:)``): no stream and no task switch per notification; one that
/// only reads the payload's bytes, where libpq holds them (``subscribe(channel:payloadHandler:)``).
public final class PostgresListener: Sendable {
    /// Called on the listener's thread with each notification of its channel; it must return
    /// quickly (the next notification waits for it) and must not block on the database.
    public typealias Handler = @Sendable (PostgresNotification) -> Void

    /// ``Handler`` for a subscriber that reads the payload's bytes in place: no `String` is made
    /// of a payload no other subscriber of its channel needs as one.
    public typealias PayloadHandler = @Sendable (PostgresPayload) -> Void

    /// Where a channel's notifications go: a stream's consumer, or a handler run in place.
    enum Subscriber {
        case stream(AsyncStream<PostgresNotification>.Continuation)
        case handler(Handler)
        case payloadHandler(PayloadHandler)

        func receive(_ notification: PostgresNotification) {
            switch self {
            case .stream(let continuation): continuation.yield(notification)
            case .handler(let handler): handler(notification)
            case .payloadHandler(let handler):
                if notification.isReconnect {
                    handler(.reconnect)
                } else {
                    var payload = notification.payload
                    payload.withUTF8 { handler(.bytes($0)) }
                }
            }
        }

        func finish() {
            if case .stream(let continuation) = self { continuation.finish() }
        }
    }

    struct Subscriptions {
        var streams: [String: [UInt64: Subscriber]] = [:] {
            didSet { channels = streams.map { Channel(name: $0.key, subscribers: Array($0.value.values)) } }
        }
        /// `streams` as each channel's name beside a list of its subscribers, rebuilt when they
        /// change (rarely): what a notification looks up, on every answer of every replica, by its
        /// name's bytes, with no `String` made of it, no hash and no array built per notification.
        private(set) var channels: [Channel] = []
        var pending: [(channel: String, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
        var stopped = false
    }

    private let configuration: PostgresConfiguration
    private let logger: Logger
    private let subscriptions = Mutex(Subscriptions())
    /// How long the thread waits on the socket before looking for new subscriptions.
    static let pollInterval: Int32 = 50
    /// How long the connection may stay silent before the thread pings it: a frozen primary
    /// sends nothing and drops nothing, so only a ping that goes unanswered tells the listener
    /// to find the new primary (where the streams' notifications now come from). Each ping
    /// waits at most ``PostgresConfiguration/queryTimeout`` (2 s when unset). The ping repeats
    /// a `LISTEN` it holds (a no-op), so `pg_stat_activity` still shows what the connection is.
    static let pingAfterSilence: Duration = .seconds(1)

    /// A listener for `configuration`; its thread starts at once and connects lazily.
    public init(configuration: PostgresConfiguration, logger: Logger = Logger(label: "parley.postgres")) {
        self.configuration = configuration
        self.logger = logger
        let thread = Thread { [self] in self.runLoop() }
        thread.name = "parley.postgres.listener"
        thread.start()
    }

    /// A stream of notifications on `channel`, returned once `LISTEN` is active on the server.
    public func notifications(channel: String) async throws -> AsyncStream<PostgresNotification> {
        let (stream, continuation) = AsyncStream.makeStream(of: PostgresNotification.self)
        let id = add(.stream(continuation), on: channel)
        continuation.onTermination = { [weak self] _ in self?.remove(id, from: channel) }
        try await awaitListening(channel)
        return stream
    }

    /// Runs `handler` on the listener's thread for every notification on `channel` (and the
    /// reconnect marker) until the returned subscription is cancelled or the listener shuts
    /// down. Returns once `LISTEN` is active.
    public func subscribe(channel: String, handler: @escaping Handler) async throws -> PostgresSubscription {
        try await subscribe(.handler(handler), on: channel)
    }

    /// ``subscribe(channel:handler:)`` for a handler that reads each payload's bytes where libpq
    /// holds them (``PostgresPayload``): the subscriber of every replica's every answer, for which
    /// making the payload a `String` (and freeing it) cost more than finding its keys.
    public func subscribe(channel: String, payloadHandler: @escaping PayloadHandler) async throws
        -> PostgresSubscription
    {
        try await subscribe(.payloadHandler(payloadHandler), on: channel)
    }

    private func subscribe(_ subscriber: Subscriber, on channel: String) async throws -> PostgresSubscription {
        let id = add(subscriber, on: channel)
        do {
            try await awaitListening(channel)
        } catch {
            remove(id, from: channel)
            throw error
        }
        return PostgresSubscription { [weak self] in self?.remove(id, from: channel) }
    }

    private func add(_ subscriber: Subscriber, on channel: String) -> UInt64 {
        subscriptions.withLock { state in
            state.nextID += 1
            state.streams[channel, default: [:]][state.nextID] = subscriber
            return state.nextID
        }
    }

    private func remove(_ id: UInt64, from channel: String) {
        subscriptions.withLock { state in _ = state.streams[channel]?.removeValue(forKey: id) }
    }

    /// Waits for the thread to run `LISTEN channel`.
    private func awaitListening(_ channel: String) async throws {
        try await withCheckedThrowingContinuation { (listening: CheckedContinuation<Void, any Error>) in
            let stopped = subscriptions.withLock { state in
                if !state.stopped { state.pending.append((channel, listening)) }
                return state.stopped
            }
            if stopped { listening.resume(throwing: PostgresError(.poolClosed, message: "the listener was shut down")) }
        }
    }

    /// Stops the thread, closes the connection and finishes every stream.
    public func shutdown() {
        let (streams, pending) = subscriptions.withLock { state in
            state.stopped = true
            defer {
                state.streams = [:]
                state.pending = []
            }
            return (state.streams.values.flatMap(\.values), state.pending)
        }
        streams.forEach { $0.finish() }
        pending.forEach {
            $0.continuation.resume(throwing: PostgresError(.poolClosed, message: "the listener was shut down"))
        }
    }

    /// The thread's loop: (re)connect, run pending `LISTEN`s, wait for and deliver notifications.
    private func runLoop() {
        var connection: OpaquePointer?
        var hadConnection = false
        var lastHeard = ContinuousClock.now
        // Set when a poll found input: the next round takes its clock reading as `lastHeard`
        // (one reading a notification instead of two, ~90 instructions each).
        var heard = false
        var statementsRan = false
        let answerWithin = configuration.queryTimeout ?? .seconds(2)
        defer { if let connection { PQfinish(connection) } }
        while !subscriptions.withLock({ $0.stopped }) {
            if connection == nil || PQstatus(connection) != CONNECTION_OK {
                if let broken = connection { PQfinish(broken) }
                connection = nil
                do {
                    let fresh = try openConnection(
                        configuration.connectionParameters, timeout: configuration.connectTimeout,
                        quarantine: configuration.hostQuarantine)
                    connection = fresh
                    statementsRan = true
                    try relisten(on: fresh, announce: hadConnection, within: answerWithin)
                    hadConnection = true
                    lastHeard = .now
                } catch {
                    logger.warning("postgres listener cannot connect", metadata: ["error": "\(error)"])
                    failPending(error)
                    Thread.sleep(forTimeInterval: 0.2)
                    continue
                }
            }
            guard let current = connection else { continue }
            if runPendingListens(on: current, within: answerWithin) { statementsRan = true }
            let now = ContinuousClock.now
            if heard {
                heard = false
                lastHeard = now
            }
            if now - lastHeard > Self.pingAfterSilence {
                statementsRan = true
                do {
                    try executeStatement(pingStatement(), on: current, deadline: .now + answerWithin)
                    lastHeard = .now
                } catch {
                    logger.warning("postgres listener lost its server; reconnecting", metadata: ["error": "\(error)"])
                    PQfinish(current)
                    connection = nil
                    continue
                }
            }
            // Statements may have buffered notifications already; otherwise nothing arrived since
            // the last delivery drained libpq's buffer (a `PQnotifies` that finds none still
            // parses its input: ~450 instructions, once per notification when asked every time).
            if statementsRan {
                statementsRan = false
                deliver(from: current)
            }
            var descriptor = pollfd(fd: PQsocket(current), events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, Self.pollInterval) > 0 {
                guard PQconsumeInput(current) != 0 else { continue }
                heard = true
                deliver(from: current)
            }
        }
    }

    /// `LISTEN` of a channel already listened to, or `SELECT 1` when there is none.
    private func pingStatement() -> String {
        guard let channel = subscriptions.withLock({ $0.streams.keys.min() }) else { return "SELECT 1" }
        return "LISTEN \(PostgresQuery.quoteIdentifier(channel))"
    }

    private func relisten(on connection: OpaquePointer, announce: Bool, within answerWithin: Duration) throws {
        let channels = subscriptions.withLock { Array($0.streams.keys) }
        for channel in channels { try listen(channel, on: connection, within: answerWithin) }
        guard announce else { return }
        logger.info("postgres listener reconnected", metadata: ["channels": "\(channels.count)"])
        let streams = subscriptions.withLock { $0.streams }
        for (channel, continuations) in streams {
            let marker = PostgresNotification(channel: channel, payload: "", senderPID: 0, isReconnect: true)
            continuations.values.forEach { $0.receive(marker) }
        }
    }

    /// Runs the `LISTEN`s subscribers wait for; whether there were any.
    private func runPendingListens(on connection: OpaquePointer, within answerWithin: Duration) -> Bool {
        // Emptied only when it holds some: this runs once a notification.
        let pending = subscriptions.withLock { state in
            guard !state.pending.isEmpty else { return state.pending }
            defer { state.pending = [] }
            return state.pending
        }
        guard !pending.isEmpty else { return false }
        for request in pending {
            do {
                try listen(request.channel, on: connection, within: answerWithin)
                request.continuation.resume()
            } catch {
                request.continuation.resume(throwing: error)
            }
        }
        return true
    }

    private func failPending(_ error: any Error) {
        let pending = subscriptions.withLock { state in
            defer { state.pending = [] }
            return state.pending
        }
        pending.forEach { $0.continuation.resume(throwing: error) }
    }

    private func listen(_ channel: String, on connection: OpaquePointer, within answerWithin: Duration) throws {
        try executeStatement(
            "LISTEN \(PostgresQuery.quoteIdentifier(channel))", on: connection, deadline: .now + answerWithin)
    }

    private func deliver(from connection: OpaquePointer) {
        while let notify = PQnotifies(connection) {
            let relname = notify.pointee.relname
            // One retain of the channel's list under the lock; its name compared as C strings.
            let found = subscriptions.withLock { state in state.channels.first { $0.isNamed(relname) } }
            if let found, let extra = notify.pointee.extra {
                found.deliver(payload: extra, senderPID: notify.pointee.be_pid)
            }
            PQfreemem(notify)
        }
    }
}

extension PostgresListener {
    /// One channel's subscribers, as a notification finds them (``Subscriptions/channels``):
    /// immutable, made again whenever a subscriber comes or goes.
    final class Channel: Sendable {
        let name: String
        /// The name's bytes and a NUL: compared with libpq's `relname` by `strcmp`.
        private let cName: [CChar]
        /// The payload handlers, apart: called without copying a ``Subscriber`` out of a list.
        private let payloadHandlers: [PayloadHandler]
        /// The streams and ``Handler``s, which take a `String` payload.
        private let others: [Subscriber]

        init(name: String, subscribers: [Subscriber]) {
            self.name = name
            cName = name.utf8CString.map { $0 }
            var payloadHandlers: [PayloadHandler] = []
            var others: [Subscriber] = []
            for subscriber in subscribers {
                if case .payloadHandler(let handler) = subscriber {
                    payloadHandlers.append(handler)
                } else {
                    others.append(subscriber)
                }
            }
            self.payloadHandlers = payloadHandlers
            self.others = others
        }

        /// Whether libpq's NUL-terminated `relname` is exactly this channel's name.
        func isNamed(_ relname: UnsafePointer<CChar>?) -> Bool {
            guard let relname else { return false }
            return cName.withUnsafeBufferPointer { strcmp($0.baseAddress!, relname) == 0 }
        }

        /// Hands libpq's NUL-terminated `payload` to every subscriber: as bytes to payload
        /// handlers (valid for their call: `payload` is freed only after this returns), as one
        /// `String` made for the others, only when there are any.
        func deliver(payload: UnsafePointer<CChar>, senderPID: Int32) {
            if !others.isEmpty {
                let notification = PostgresNotification(
                    channel: name, payload: String(cString: payload), senderPID: senderPID, isReconnect: false)
                for subscriber in others { subscriber.receive(notification) }
            }
            guard !payloadHandlers.isEmpty else { return }
            // `CChar` and `UInt8` are a signed and an unsigned variant of one type, which may alias.
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(payload).assumingMemoryBound(to: UInt8.self), count: strlen(payload))
            for handler in payloadHandlers { handler(.bytes(bytes)) }
        }
    }
}
