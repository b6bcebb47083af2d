import ParleyCore
import ParleyHTTP

extension DeliveryHandlers {
    /// `GET /v1/flows/{id}/completions?after=&limit=`: oldest first; `{items, next}` pages, or
    /// NDJSON (one completion per line, `Parley-Next` naming the cursor when more remain) for
    /// `Accept: application/x-ndjson`.
    func listCompletions(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try RequestInput.parameter("id", requestContext)
        let ndjson = request.headers["Accept"]?.lowercased().contains("application/x-ndjson") == true
        let ceiling = ndjson ? configuration.maxNDJSONCompletions : configuration.maxPageSize
        var limit = ndjson ? ceiling : configuration.defaultPageSize
        if let text = request.query("limit") {
            guard let value = RequestInput.positiveInteger(text), value <= ceiling else {
                throw ServiceProblem.badParameter("limit must be an integer from 1 to \(ceiling)")
            }
            limit = value
        }
        var after = 0
        if let text = request.query("after") {
            guard let value = text == "0" ? 0 : RequestInput.positiveInteger(text) else {
                throw ServiceProblem.badParameter(
                    "after must be a cursor from a previous page (a non-negative integer)")
            }
            after = value
        }
        let items = try await completions.page(
            flow: id, after: after, limit: limit)
        if items.isEmpty, try await flows.flowSummary(id) == nil {
            throw ServiceProblem.notFound("there is no flow \"\(id)\"")
        }
        let next = items.count == limit ? items.last.map { String($0.id) } : nil
        guard ndjson else { return Self.json(Self.page(items.map(\.json), next: next)) }
        var headers: HTTPHeaders = ["Content-Type": "application/x-ndjson"]
        if let next { headers.set("Parley-Next", next) }
        return HTTPResponse(status: .ok, headers: headers, body: items.flatMap(\.line))
    }
}
