import ParleyCore
import ParleyHTTP

extension FlowHandlers {
    /// `POST /v1/flows/{id}/releases` `{"version": n, "channel": "…", "percent": p?}`: makes a
    /// version live (for `p`% of new sessions while below 100); rollback is releasing an older
    /// one. History is kept.
    func release(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try RequestInput.parameter("id", requestContext)
        let body = try JSONBody.object(request)
        guard let number = body["version"]?.numberValue?.intValue, number > 0 else {
            throw ServiceProblem.malformedBody("\"version\" must be a positive integer")
        }
        let channel = try configuration.channelName(body["channel"])
        let percent = try Self.percent(body["percent"])
        let release: StoredRelease?
        do {
            release = try await flows.release(
                id, version: number, channel: channel, by: caller.name, percent: percent)
        } catch is FlowStore.NoFullRelease {
            throw ServiceProblem.make(
                .unprocessableContent, "no-full-release", "A partial release needs a full release before it",
                "Channel \"\(channel)\" has no full release of \"\(id)\" for the other \(100 - percent)% of sessions; "
                    + "release a version at 100% first.")
        }
        guard let release else { throw ServiceProblem.notFound("flow \"\(id)\" has no version \(number)") }
        versions.cache.invalidate(flow: id, channel: channel)
        versions.cache.rememberReleased(flow: id, number: number)
        logger.info("released \(id) v\(number) on \(channel) at \(percent)% by \(caller.name)")
        return Self.json(release.json, status: .created)
    }

    /// `GET /v1/flows/{id}/releases`: history, newest first.
    func listReleases(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try RequestInput.parameter("id", requestContext)
        let query = try ListQuery(request, cursorName: "before", configuration: configuration)
        let releases = try await flows.releases(id, limit: query.limit)
        if releases.isEmpty, try await flows.flowSummary(id) == nil {
            throw ServiceProblem.notFound("there is no flow \"\(id)\"")
        }
        return Self.json(Self.page(releases.map(\.json), next: nil))
    }

    /// `"percent"`: an integer 1…100, 100 when absent.
    static func percent(_ value: JSONValue?) throws(HTTPError) -> Int {
        guard let value, !value.isNull else { return 100 }
        guard let percent = value.numberValue?.intValue, (1...100).contains(percent) else {
            throw ServiceProblem.malformedBody("\"percent\" must be an integer from 1 to 100")
        }
        return percent
    }
}
