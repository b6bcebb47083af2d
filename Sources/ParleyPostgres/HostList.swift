import CLibPQ
import Foundation
import Synchronization

/// The hosts of a multi-host URL (`postgres://…@h1:p1,h2:p2/db?target_session_attrs=read-write`),
/// each as a connection of its own, so that every host gets its own deadline.
///
/// libpq 15 (Debian 12) applies `connect_timeout` per host only in its blocking `PQconnectdb`;
/// the non-blocking `PQconnectPoll` that keeps a connect within a millisecond deadline has no
/// way to give up on one host and move to the next. A frozen primary (port open, startup packet
/// never answered) would then spend the whole deadline and the standby would never be tried.
/// So the hosts are split here and tried one at a time, the one that worked last first, and
/// `target_session_attrs` is still checked by libpq on each.
struct HostList {
    /// One parameter list per host (the configured ones, then that host's `host`, `hostaddr`
    /// and `port`, which override the URL's lists); a single element for a single-host URL.
    let candidates: [[(String, String)]]
    /// What the host preferences are kept under: the URL or conninfo string.
    let key: String

    /// Splits `parameters` (whose last `dbname` is the URL or conninfo, see
    /// ``PostgresConfiguration/connectionParameters``) into one parameter list per host.
    init(parameters: [(String, String)]) {
        key = parameters.last { $0.0 == "dbname" }?.1 ?? ""
        let options = Self.parse(key)
        let hosts = Self.split(options["host"])
        let addresses = Self.split(options["hostaddr"])
        let ports = Self.split(options["port"])
        let count = max(hosts.count, addresses.count)
        guard count > 1 else {
            candidates = [parameters]
            return
        }
        let defaultPort = ProcessInfo.processInfo.environment["PGPORT"].flatMap { $0.isEmpty ? nil : $0 } ?? "5432"
        candidates = (0..<count).map { index in
            var own = parameters
            // An empty element means libpq's default; libpq ignores an empty value, so name it.
            if index < hosts.count { own.append(("host", hosts[index].isEmpty ? "/var/run/postgresql" : hosts[index])) }
            if index < addresses.count, !addresses[index].isEmpty { own.append(("hostaddr", addresses[index])) }
            let port = ports.count == 1 ? ports[0] : index < ports.count ? ports[index] : ""
            own.append(("port", port.isEmpty ? defaultPort : port))
            return own
        }
    }

    /// Each candidate's `host:port`, as ``quarantine(endpoint:until:)`` names it.
    var endpoints: [String] {
        candidates.map { parameters in
            let host = parameters.last { $0.0 == "host" }?.1 ?? ""
            let port = parameters.last { $0.0 == "port" }?.1 ?? ""
            return "\(host):\(port)"
        }
    }

    /// The order to try the hosts in at `now`: the one that worked last first, then the others
    /// in their configured order, every host in quarantine after all of them; and which are.
    func order(at now: ContinuousClock.Instant) -> (order: [Int], quarantined: Set<Int>) {
        guard candidates.count > 1 else { return ([0], []) }
        let endpoints = self.endpoints
        let (preferred, quarantined) = Self.state.withLock { state in
            (
                state.preferred[key] ?? 0,
                Set(endpoints.indices.filter { (state.quarantine[endpoints[$0]]?.until ?? now) > now })
            )
        }
        let rotated = (0..<candidates.count).map { (preferred + $0) % candidates.count }
        return (rotated.filter { !quarantined.contains($0) } + rotated.filter { quarantined.contains($0) }, quarantined)
    }

    /// Host `index` took a connection: try it first from now on, and lift its quarantine.
    func succeeded(_ index: Int) {
        guard candidates.count > 1 else { return }
        let endpoint = endpoints[index]
        Self.state.withLock { state in
            state.preferred[key] = index
            state.quarantine[endpoint] = nil
        }
    }

    /// Host `index` let an attempt run into its connect timeout: try it last until `until`.
    func timedOut(_ index: Int, until: ContinuousClock.Instant) {
        guard candidates.count > 1 else { return }
        Self.quarantine(endpoint: endpoints[index], until: until)
    }

    /// The server at `endpoint` (`host:port`) stopped answering, found by a connect timeout or
    /// by a statement's deadline (``PostgresConnection``): every multi-host URL naming it tries
    /// it last until `until`, so new connections go to the other hosts at once.
    static func quarantine(endpoint: String, until: ContinuousClock.Instant) {
        state.withLock { state in
            let since = state.quarantine[endpoint].map { $0.until > .now ? $0.since : .now } ?? .now
            state.quarantine[endpoint] = (since, until)
        }
    }

    /// When the server at `endpoint` was found unresponsive, while it is in quarantine: a pooled
    /// connection to it opened before then is dropped instead of being handed out (each would
    /// otherwise cost a request the whole statement deadline).
    static func quarantinedSince(endpoint: String) -> ContinuousClock.Instant? {
        state.withLock { state in
            guard let entry = state.quarantine[endpoint], entry.until > .now else { return nil }
            return entry.since
        }
    }

    /// What the process learned about hosts, shared by every pool and listener (connections are
    /// opened rarely; one lock is plenty): which candidate of each URL worked last, and which
    /// `host:port` stopped answering until when.
    private static let state = Mutex(HostState())

    /// libpq's reading of a URL or conninfo string (`PQconninfoParse`), keyword to value.
    private static func parse(_ conninfo: String) -> [String: String] {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &error) else {
            if let error { PQfreemem(error) }
            return [:]
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return values
    }

    private static func split(_ list: String?) -> [String] {
        guard let list, !list.isEmpty else { return [] }
        return list.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpace() }
    }
}

/// Which host of each multi-host URL to try first, and which servers to try last for now.
struct HostState {
    var preferred: [String: Int] = [:]
    var quarantine: [String: (since: ContinuousClock.Instant, until: ContinuousClock.Instant)] = [:]
}
