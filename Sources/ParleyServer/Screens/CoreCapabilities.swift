import ParleyCore
import ParleyHTTP
import Synchronization

/// Resolves the `Parley-Core` header to a capability set, remembering recent
/// header values (bounded, since clients choose them).
final class CoreCapabilities: Sendable {
    /// What a header value resolves to. A class: every screen request reads one out of the
    /// cache and hands it down, and a struct copied its set and two strings each time.
    final class Resolved: Sendable {
        /// The client's core version (the floor when the header is absent).
        let core: CoreVersion
        /// Everything that core understands.
        let capabilities: CapabilitySet
        /// Canonical description of the set: part of every gated-screen cache key.
        let fingerprint: String
        /// Bounded metric label: the newest supported core at or below the client's.
        let label: String

        init(core: CoreVersion, capabilities: CapabilitySet, fingerprint: String, label: String) {
            self.core = core
            self.capabilities = capabilities
            self.fingerprint = fingerprint
            self.label = label
        }
    }

    private let known: Mutex<LRUDictionary<String, Resolved>>
    private let floor: Resolved

    /// Remembers at most `limit` header values; the least recently seen goes first.
    init(limit: Int) {
        known = Mutex(LRUDictionary(capacity: limit))
        floor = Self.resolve(CoreVersion.floor)
    }

    /// The header's capabilities; 400 for a malformed or repeated header (DESIGN.md
    /// "Capabilities": missing means the oldest supported core).
    func resolve(_ request: HTTPRequest) throws(HTTPError) -> Resolved {
        try resolve(optionalHeader: try Self.header(request))
    }

    /// The request's `Parley-Core` value, nil when absent; 400 when it is sent twice.
    static func header(_ request: HTTPRequest) throws(HTTPError) -> String? {
        let (header, repeated) = request.headers.single("Parley-Core")
        guard !repeated else { throw ServiceProblem.badParameter("send Parley-Core once") }
        return header
    }

    /// A header value's capabilities, the oldest supported core's when there is none.
    func resolve(optionalHeader header: String?) throws(HTTPError) -> Resolved {
        guard let header else { return floor }
        return try resolve(header: header)
    }

    /// A `Parley-Core` value's capabilities (a session's core is stored as such a value).
    func resolve(header: String) throws(HTTPError) -> Resolved {
        if let hit = known.withLock({ $0.value(for: header) }) { return hit }
        let version: CoreVersion
        do {
            version = try CoreVersion(parsing: header)
        } catch {
            throw ServiceProblem.badParameter(
                "Parley-Core \"\(header.prefix(64))\" is not a semantic version: \(error)")
        }
        let resolved = Self.resolve(version)
        known.withLock { $0.set(resolved, for: header) }
        return resolved
    }

    private static func resolve(_ version: CoreVersion) -> Resolved {
        let capabilities = CapabilitySet(core: version)
        let label = CoreVersion.supported.last { $0 <= version }.map { "\($0.major).\($0.minor)" } ?? "below-floor"
        return Resolved(
            core: version, capabilities: capabilities, fingerprint: capabilities.fingerprintInput, label: label)
    }
}
