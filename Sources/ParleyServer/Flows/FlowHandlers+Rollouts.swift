import ParleyCore
import ParleyHTTP

extension FlowHandlers {
    /// `POST /v1/flows/{id}/releases/{r}/halt`: stops new sessions from entering the live partial
    /// release `r`; they get the previous full release's version again. Idempotent.
    func haltRelease(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try RequestInput.parameter("id", requestContext)
        let releaseId = try Self.releaseNumber(requestContext)
        let release: StoredRelease
        do {
            release = try await flows.halt(id, release: releaseId, by: caller.name)
        } catch FlowStore.HaltRefusal.unknownRelease {
            throw ServiceProblem.notFound("flow \"\(id)\" has no release \(releaseId)")
        } catch FlowStore.HaltRefusal.notLiveRollout {
            throw ServiceProblem.conflict(
                "not-a-rollout",
                "Release \(releaseId) is not the live partial release of its channel; only a rollout in progress can be halted."
            )
        }
        versions.cache.invalidate(flow: id, channel: release.channel)
        logger.info("halted release \(releaseId) of \(id) on \(release.channel) by \(caller.name)")
        return Self.json(release.json)
    }

    /// `GET /v1/flows/{id}/releases/{r}/comparison`: the rollout's version beside the full
    /// release's since the rollout began: sessions started, completed, abandoned, rejections by rule.
    func releaseComparison(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller)
        async throws -> HTTPResponse
    {
        let id = try RequestInput.parameter("id", requestContext)
        let releaseId = try Self.releaseNumber(requestContext)
        guard let scope = try await flows.comparisonScope(id, release: releaseId) else {
            throw ServiceProblem.notFound("flow \"\(id)\" has no release \(releaseId)")
        }
        let versions = [scope.baseVersion, scope.release.version].compactMap { $0 }
        let outcomes = try await flows.outcomes(
            id, channel: scope.release.channel, since: scope.since, versions: Array(Set(versions)).sorted())
        let rows: [JSONValue] = outcomes.map { outcome in
            var rejections = JSONObject()
            for (rule, count) in outcome.rejections.sorted(by: { $0.key < $1.key }) {
                rejections[rule] = .number(JSONNumber(count))
            }
            let role = outcome.version == scope.release.version ? "rollout" : "base"
            return [
                "version": .number(JSONNumber(outcome.version)), "role": .string(role),
                "started": .number(JSONNumber(outcome.started)), "completed": .number(JSONNumber(outcome.completed)),
                "abandoned": .number(JSONNumber(outcome.abandoned)), "active": .number(JSONNumber(outcome.active)),
                "rejections": .object(rejections),
            ]
        }
        return Self.json([
            "flow": .string(id), "release": scope.release.json, "since": .string(scope.since),
            "versions": .array(rows),
        ])
    }

    /// The `{r}` path parameter: a positive release id.
    private static func releaseNumber(_ requestContext: RequestContext) throws(HTTPError) -> Int {
        guard let number = requestContext.parameters["r"].flatMap(RequestInput.positiveInteger) else {
            throw ServiceProblem.badParameter("the release id must be a positive integer")
        }
        return number
    }
}
