import ParleyCore
import ParleyHTTP

/// The studio's data from the database: a flow's funnel (DESIGN.md "Studio"), the same from
/// every replica and after a restart, and the capability registry the palette reads.
struct FunnelHandlers: ServiceHandler {
    let store: FunnelStore
    /// Pinned versions, whose graphs decide which steps a session could still reach.
    let flows: FlowStore

    /// `GET /v1/flows/{id}/funnel?version=&core=&locale=&from=&to=`.
    func funnel(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let flowId = try RequestInput.parameter("id", requestContext)
        let filters = try FunnelFilters(request)
        async let groups = store.groups(flowId, filters)
        async let rejections = store.rejections(flowId, filters)
        async let medians = store.medians(flowId, filters)
        let grouped = try await groups
        var versions = Set(grouped.map(\.version))
        if let version = filters.version { versions.insert(version) }
        var pinned: [Int: Flow] = [:]
        for version in versions {
            if let stored = try await flows.version(flowId, version) { pinned[version] = stored.flow }
        }
        if let version = filters.version, pinned[version] == nil {
            throw ServiceProblem.notFound("flow \"\(flowId)\" has no version \(version)")
        }
        if grouped.isEmpty, filters.version == nil {
            // No session yet: the newest version's steps with zeros; 404 when the flow is unknown.
            guard let latest = try await flows.listVersions(flowId, before: nil, limit: 1).first else {
                throw ServiceProblem.notFound("no flow \"\(flowId)\"")
            }
            pinned[latest.version] = latest.flow
        }
        let report = FunnelReport(
            flowId: flowId, filters: filters.json, groups: grouped, flows: pinned, rejections: try await rejections,
            medians: try await medians)
        return Self.json(report.json, headers: ["Cache-Control": "no-store"])
    }

    /// `GET /v1/capabilities`.
    func capabilities(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        Self.json(CapabilitiesDocument.json, headers: ["Cache-Control": "private, max-age=300"])
    }
}
