import ParleyCore
import ParleyCrypto
import ParleyHTTP

/// Turns (flow version, step, capabilities) into a ready response body with a
/// strong ETag, once; later requests are served from ``ScreenCache``.
struct ScreenRenderer: Sendable {
    let cache: ScreenCache
    /// The `Cache-Control` value every screen response carries.
    let cacheControl: String

    /// The cached or freshly gated step in `locale` (nil: a flow in one language); `nil` when
    /// the version has no such step.
    func render(
        _ version: StoredFlowVersion, step stepId: String, for core: CoreCapabilities.Resolved, locale: String? = nil,
        loop: Int = 0
    ) -> ScreenCache.Entry? {
        let key = ScreenCache.Key(
            flow: ScalarKey(version.flowId), version: version.version, step: ScalarKey(stepId),
            fingerprint: core.fingerprint, locale: locale)
        if let hit = cache.entry(key, loop: loop) { return hit }
        guard let entry = render(version.flow(in: locale), of: version, step: stepId, for: core, locale: locale)
        else { return nil }
        cache.store(entry, for: key)
        return entry
    }

    /// `flow` (a version's flow, or one whose step a session resolved) gated for `core`, never cached.
    func render(
        _ flow: Flow, of version: StoredFlowVersion, step stepId: String, for core: CoreCapabilities.Resolved,
        locale: String?
    ) -> ScreenCache.Entry? {
        guard let gated = Gate(capabilities: core.capabilities).gate(flow, step: stepId) else { return nil }
        guard case .object(var body) = gated.json else { return nil }
        body["flow"] = .string(version.flowId)
        body["version"] = .number(JSONNumber(version.version))
        let bytes = CanonicalJSON.encode(.object(body))
        let etag = "\"" + Hex.encode(Array(SHA256.hash(bytes).prefix(16))) + "\""
        let types = Self.componentTypes(in: version.flow, step: stepId)
        let substitutions = gated.report.map { entry in
            (component: types[ScalarKey(entry.nodeId)] ?? "unknown", decision: entry.decision.rawValue)
        }
        var headers: HTTPHeaders = [
            "ETag": etag, "Vary": "Parley-Core", "Cache-Control": cacheControl,
            "Parley-Flow-Version": String(version.version), "Parley-Served": gated.served.rawValue,
        ]
        if let locale {
            headers.set("Vary", "Parley-Core, Accept-Language")
            headers.set("Content-Language", locale)
        }
        return ScreenCache.Entry(
            body: bytes, etag: etag, served: gated.served.rawValue, substitutions: substitutions, headers: headers)
    }

    /// Component type by node id in the step's and the upgrade screen, fallbacks included (metric labels).
    private static func componentTypes(in flow: Flow, step: String) -> [ScalarKey: String] {
        var types: [ScalarKey: String] = [:]
        func visit(_ node: Node) {
            types[ScalarKey(node.id)] = types[ScalarKey(node.id)] ?? node.type.name
            node.children.forEach(visit)
            if let fallback = node.fallback { visit(fallback) }
        }
        if let screen = flow.step(step)?.screen { visit(screen.root) }
        if let upgrade = flow.upgrade { visit(upgrade.root) }
        return types
    }
}
