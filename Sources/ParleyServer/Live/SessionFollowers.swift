import ParleyHTTP
import Synchronization

/// The event streams of this process that follow sessions (DESIGN.md "Live sessions"). A change
/// made through any process arrives as a `parley_sessions` notification (session key + rev);
/// the session's snapshot is then read once — from the snapshot cache, else the database — and
/// written to every stream of that session here, never once per stream. Each stream gets only
/// snapshots newer than the last rev it sent, so every stream sees revs strictly in order; a
/// completed or expired session's streams end after its final snapshot, an erased one's at once.
final class SessionFollowers: Sendable {
    /// Reads the current snapshot of a session (by id), whatever its status; nil when it is gone.
    typealias Loader = @Sendable (String) async -> SessionSnapshot?

    private struct Follower {
        let stream: ResponseStream
        /// The newest rev written to the stream (or named by `Last-Event-ID`).
        var sentRev: Int
    }

    private struct Session {
        let id: String
        var followers: [Int: Follower] = [:]
        /// A read for this session is under way; later notifications only raise `wantedRev`.
        var reading = false
        /// The newest rev notified; a read that returns less is repeated.
        var wantedRev = 0
        /// The listener reconnected since the running read began (notifications may have been
        /// missed): that read may predate a change, so another one follows it. Apart from
        /// `wantedRev`: a resync folded into it as "any rev" swallowed a real rev notified
        /// while its read was under way (the HA drill's stream stopped a rev short).
        var resyncPending = false
    }

    private struct State {
        var sessions: [String: Session] = [:]
        var open = 0
        var nextFollower = 0
    }

    private let state = Mutex(State())
    private let maxStreams: Int
    private let queueBytes: Int
    private let metrics: MetricsRegistry

    /// Heartbeat of every stream: an SSE comment line (WHATWG HTML §9.2.6 ignores it).
    static let heartbeat = Array(":\n\n".utf8)

    init(maxStreams: Int, queueBytes: Int, metrics: MetricsRegistry) {
        self.maxStreams = maxStreams
        self.queueBytes = queueBytes
        self.metrics = metrics
    }

    /// Open streams, for the gauge.
    var openStreams: Int { state.withLock { $0.open } }

    /// Whether any session is followed (or being read for its streams): when none is, a
    /// notification's changes concern no stream (``changed(keyHex:rev:load:)`` would find none).
    var followsAny: Bool { state.withLock { !$0.sessions.isEmpty } }

    /// The gauge's line for `/metrics`.
    func gaugeLines() -> [MetricsRegistry.Sample] {
        [Metric.liveStreamsOpen.sample(openStreams)]
    }

    /// Opens a stream following session `id` (hex key `keyHex`) that has already shown
    /// `lastEventId`; nil when this process holds its maximum of streams. The caller then offers
    /// the current snapshot; notifications that arrive meanwhile are not missed.
    func follow(id: String, keyHex: String, lastEventId: Int) -> ResponseStream? {
        let stream = ResponseStream(maxQueuedBytes: queueBytes, heartbeat: Self.heartbeat)
        let number = state.withLock { state -> Int? in
            guard state.open < maxStreams else { return nil }
            state.open += 1
            state.nextFollower += 1
            state.sessions[keyHex, default: Session(id: id)].followers[state.nextFollower] = Follower(
                stream: stream, sentRev: lastEventId)
            return state.nextFollower
        }
        guard let number else { return nil }
        stream.onEnd { [self] in forget(keyHex: keyHex, follower: number) }
        return stream
    }

    private func forget(keyHex: String, follower: Int) {
        state.withLock { state in
            guard state.sessions[keyHex]?.followers.removeValue(forKey: follower) != nil else { return }
            state.open -= 1
            if state.sessions[keyHex]?.followers.isEmpty == true, state.sessions[keyHex]?.reading == false {
                state.sessions[keyHex] = nil
            }
        }
    }

    /// Writes `snapshot` to every stream of the session that has not sent that rev yet; ends them
    /// all when the session is over.
    func offer(_ snapshot: SessionSnapshot, keyHex: String) {
        let event = Self.event(snapshot)
        let finished = snapshot.status != .active
        let sent = state.withLock { state -> Int in
            guard var session = state.sessions[keyHex] else { return 0 }
            var sent = 0
            // An erased session's tombstone is not shown: its streams just end.
            for (number, var follower) in session.followers
            where follower.sentRev < snapshot.rev && snapshot.status != .erased {
                // Sent under the lock, so two offers can never reorder one stream's revs.
                if follower.stream.send(event) { sent += 1 }
                follower.sentRev = snapshot.rev
                session.followers[number] = follower
            }
            if finished { for follower in session.followers.values { follower.stream.finish() } }
            state.sessions[keyHex] = session
            return sent
        }
        if sent > 0 { metrics.increment(.liveEventsSent, by: UInt64(sent)) }
    }

    /// A change at `rev` was notified: reads the snapshot once (unless a read is under way, which
    /// then reads again) and offers it to the session's streams. Sessions nobody follows here
    /// cost a dictionary lookup.
    func changed(keyHex: String, rev: Int, load: @escaping Loader) {
        let id = state.withLock { state -> String? in
            guard var session = state.sessions[keyHex] else { return nil }
            session.wantedRev = max(session.wantedRev, rev)
            defer { state.sessions[keyHex] = session }
            guard !session.reading else { return nil }
            session.reading = true
            return session.id
        }
        guard let id else { return }
        Task { await read(id: id, keyHex: keyHex, load: load) }
    }

    /// The listener reconnected and may have missed notifications: re-reads every followed session
    /// (a read under way began before the reconnect, so it is followed by one more).
    func resync(load: @escaping Loader) {
        let ids = state.withLock { state -> [(keyHex: String, id: String)] in
            var starting: [(keyHex: String, id: String)] = []
            for (keyHex, var session) in state.sessions {
                if session.reading {
                    session.resyncPending = true
                } else {
                    session.reading = true
                    starting.append((keyHex, session.id))
                }
                state.sessions[keyHex] = session
            }
            return starting
        }
        for (keyHex, id) in ids { Task { await read(id: id, keyHex: keyHex, load: load) } }
    }

    private func read(id: String, keyHex: String, load: Loader) async {
        var failedReads = 0
        while true {
            // This read begins after every reconnect noted so far: it answers them.
            state.withLock { $0.sessions[keyHex]?.resyncPending = false }
            let snapshot = await load(id)
            if let snapshot { offer(snapshot, keyHex: keyHex) }
            if snapshot == nil {
                // The database is failing over (or briefly unreachable): the change was notified,
                // so read again shortly rather than leave the streams a rev behind (issue 28).
                failedReads += 1
                let followed = state.withLock { !($0.sessions[keyHex]?.followers.isEmpty ?? true) }
                guard followed, failedReads <= Self.failedReadRetries else { return finishReading(keyHex: keyHex) }
                try? await Task.sleep(for: Self.failedReadDelay)
                continue
            }
            let again = state.withLock { state -> Bool in
                guard var session = state.sessions[keyHex] else { return false }
                // A newer notified rev, or a reconnect since this read began, reads again.
                let stale = session.wantedRev > snapshot!.rev || session.resyncPending
                session.wantedRev = 0
                session.reading = stale && !session.followers.isEmpty
                if session.followers.isEmpty {
                    state.sessions[keyHex] = nil
                } else {
                    state.sessions[keyHex] = session
                }
                return session.reading
            }
            if !again { return }
        }
    }

    /// How often, and how far apart, a snapshot read that failed is tried again: 30 s in all,
    /// longer than a failover takes.
    static let failedReadRetries = 120
    static let failedReadDelay: Duration = .milliseconds(250)

    /// Gives up on a session whose snapshot cannot be read (gone, or the database down for long).
    private func finishReading(keyHex: String) {
        state.withLock { state in
            guard var session = state.sessions[keyHex] else { return }
            session.reading = false
            session.wantedRev = 0
            session.resyncPending = false
            state.sessions[keyHex] = session.followers.isEmpty ? nil : session
        }
    }

    /// One SSE event (WHATWG HTML §9.2): `id` is the rev, so a reconnecting client's
    /// `Last-Event-ID` names the last snapshot it saw. Canonical JSON has no raw newline, so the
    /// snapshot is one `data` line.
    static func event(_ snapshot: SessionSnapshot) -> [UInt8] {
        var bytes = Array("id: \(snapshot.rev)\nevent: snapshot\ndata: ".utf8)
        bytes.reserveCapacity(bytes.count + snapshot.body.count + 2)
        bytes += snapshot.body
        bytes += [10, 10]
        return bytes
    }
}
