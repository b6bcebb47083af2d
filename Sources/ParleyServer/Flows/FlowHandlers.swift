import Logging
import ParleyCore
import ParleyHTTP

/// Flows, their versions and releases: publish, lint, read, release, roll out, halt, compare,
/// and the dry runs that store nothing (preview, validate, samples).
struct FlowHandlers: ServiceHandler {
    let configuration: ServiceConfiguration
    /// The versions and what is live, through this process's cache.
    let versions: LiveVersions
    let locales: LocaleChoices
    let logger: Logger

    /// The versions and releases in the database.
    var flows: FlowStore { versions.flows }
}

extension FlowHandlers {
    /// `POST /v1/flows`: lint, then store a new immutable version (DESIGN.md "HTTP API").
    func createFlow(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let document = try JSONBody.parse(request)
        let flow = try Self.lintedFlow(document)
        let ifMatch = try Self.ifMatchVersion(request)
        switch try await flows.storeVersion(flow, author: caller.name, ifMatch: ifMatch) {
        case .created(let version):
            versions.cache.remember(version: version)
            return Self.json(version.fullJSON, status: .created, headers: Self.versionHeaders(version))
        case .existing(let version):
            return Self.json(version.fullJSON, headers: Self.versionHeaders(version))
        case .preconditionFailed(let latest):
            throw ServiceProblem.preconditionFailed(latest: latest)
        }
    }

    /// `POST /v1/flows/lint`: every problem and the servability matrix, storing nothing.
    func lintFlow(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let document = try JSONBody.parse(request)
        // The linter already reports servability problems; the matrix shows every core × step.
        let problems = FlowLinter().lint(document: document)
        var report = JSONObject()
        if FlowLinter.documentKind(of: document) == "flow", let flow = try? Flow(json: document, at: .root) {
            report["servability"] = Servability().analyze(flow).json
        }
        report["valid"] = .bool(problems.isEmpty)
        report["problems"] = .array(problems.map(\.json))
        return Self.json(.object(report))
    }

    /// A flow that passes lint (servability included), or 422 with every problem.
    static func lintedFlow(_ document: JSONValue) throws(HTTPError) -> Flow {
        let problems = FlowLinter().lint(flow: document)
        guard problems.isEmpty else { throw ServiceProblem.lintFailed(problems) }
        do {
            return try Flow(json: document, at: .root)
        } catch {
            throw ServiceProblem.malformedBody(error.description)
        }
    }

    /// `If-Match: "3"` → 3; absent → nil; `*` → nil (any version); anything else → 400.
    static func ifMatchVersion(_ request: HTTPRequest) throws(HTTPError) -> Int? {
        guard let header = request.headers["If-Match"] else { return nil }
        let trimmed = header.trimmingASCIISpaces
        if trimmed == "*" { return nil }
        var tag = Substring(trimmed)
        if tag.hasPrefix("\""), tag.hasSuffix("\""), tag.count >= 2 { tag = tag.dropFirst().dropLast() }
        guard let version = Int(tag), version > 0 else {
            throw ServiceProblem.badParameter("If-Match must name a version, e.g. If-Match: \"3\"")
        }
        return version
    }

    static func versionHeaders(_ version: StoredFlowVersion) -> HTTPHeaders {
        [
            "ETag": "\"\(version.version)\"", "Location": "/v1/flows/\(version.flowId)/versions/\(version.version)",
            "Parley-Flow-Version": String(version.version),
        ]
    }

    /// `GET /v1/flows`.
    func listFlows(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let query = try ListQuery(request, cursorName: "after", configuration: configuration)
        let flows = try await flows.listFlows(after: query.cursor, limit: query.limit)
        return Self.json(Self.page(flows.map(\.json), next: flows.count == query.limit ? flows.last?.id : nil))
    }

    /// `GET /v1/flows/{id}`.
    func getFlow(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try RequestInput.parameter("id", requestContext)
        guard let summary = try await flows.flowSummary(id) else {
            throw ServiceProblem.notFound("there is no flow \"\(id)\"")
        }
        return Self.json(summary.json)
    }

    /// `GET /v1/flows/{id}/versions`, newest first; `?before=n` pages.
    func listVersions(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try RequestInput.parameter("id", requestContext)
        let query = try ListQuery(request, cursorName: "before", configuration: configuration)
        let before = try query.positiveCursor("before", meaning: "a positive version number")
        let versions = try await flows.listVersions(id, before: before, limit: query.limit)
        if versions.isEmpty, before == nil { throw ServiceProblem.notFound("there is no flow \"\(id)\"") }
        let next = versions.count == query.limit ? versions.last.map { String($0.version) } : nil
        return Self.json(Self.page(versions.map(\.summaryJSON), next: next))
    }

    /// `GET /v1/flows/{id}/versions/{n}`.
    func getVersion(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try RequestInput.parameter("id", requestContext)
        let number = try RequestInput.number("n", requestContext)
        guard let version = try await versions.version(flow: id, number: number) else {
            throw ServiceProblem.notFound("flow \"\(id)\" has no version \(number)")
        }
        return Self.json(version.fullJSON, headers: Self.versionHeaders(version))
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingASCIISpaces: String {
        var view = Substring(self)
        while view.first == " " || view.first == "\t" { view.removeFirst() }
        while view.last == " " || view.last == "\t" { view.removeLast() }
        return String(view)
    }
}
