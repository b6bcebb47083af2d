import ParleyCore
import ParleyHTTP
import Synchronization

/// The locale an `Accept-Language` value gets for a flow version (RFC 4647 lookup, DESIGN.md
/// "Localization"), remembered per (version, header value) so a cache-hot localized screen
/// costs a dictionary hit, not a header parse. Bounded, since clients choose the values.
final class LocaleChoices: Sendable {
    private struct Key: Hashable {
        let flow: String
        let version: Int
        let header: String
    }

    private let limit: Int
    private let known = Mutex<[Key: String]>([:])

    init(limit: Int) { self.limit = limit }

    /// The version's locale for this request; nil for a flow in one language.
    func locale(_ request: HTTPRequest, _ version: StoredFlowVersion) -> String? {
        guard let locales = version.flow.localization?.locales else { return nil }
        guard let header = request.headers["Accept-Language"] else { return locales.first }
        let key = Key(flow: version.flowId, version: version.version, header: header)
        if let hit = known.withLock({ $0[key] }) { return hit }
        let chosen = LocaleNegotiation.lookup(header, in: locales)
        guard let chosen else { return nil }
        known.withLock { cache in
            if cache.count >= limit { cache.removeAll(keepingCapacity: true) }
            cache[key] = chosen
        }
        return chosen
    }
}
