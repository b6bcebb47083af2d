import ParleyCore
import ParleyHTTP

extension FlowHandlers {
    /// Most digits of `?seed=` (canonical decimal, below 10¹⁹ so every such seed is a `UInt64`): an
    /// exact rule `/openapi.json` can state as a pattern.
    static let maximumSampleSeedDigits = 19

    /// `GET /v1/flows/{id}/versions/{n}/samples?step=&core=&seed=`: the `parley.samples/1`
    /// document for a stored version (issue 14), the same bytes `parley samples` prints for it.
    ///
    /// `core` marks samples aimed at rules that core defers; `seed` (default 0) fixes every choice.
    func samples(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let id = try RequestInput.parameter("id", requestContext)
        let number = try RequestInput.number("n", requestContext)
        var seed: UInt64 = 0
        if let text = request.query("seed") {
            guard text.utf8.count <= Self.maximumSampleSeedDigits, let value = UInt64(text), String(value) == text
            else {
                throw ServiceProblem.badParameter(
                    "seed must be a whole number from 0 to \(String(repeating: "9", count: Self.maximumSampleSeedDigits))"
                        + " without leading zeros")
            }
            seed = value
        }
        var capabilities: CapabilitySet?
        if let text = request.query("core") {
            do {
                capabilities = CapabilitySet(core: try CoreVersion(parsing: text))
            } catch {
                throw ServiceProblem.badParameter("core: \(error.description)")
            }
        }
        guard let version = try await versions.version(flow: id, number: number) else {
            throw ServiceProblem.notFound("flow \"\(id)\" has no version \(number)")
        }
        let step = request.query("step")
        guard
            let samples = SampleGenerator(seed: seed).samples(
                for: version.flow, step: step, capabilities: capabilities)
        else {
            throw ServiceProblem.notFound("flow \"\(id)\" version \(number) has no step \"\(step ?? "")\"")
        }
        guard case .object(var document) = samples.json else { return HTTPError.internalError.response }
        document["version"] = .number(JSONNumber(version.version))
        if let core = request.query("core") { document["core"] = .string(core) }
        return Self.json(.object(document), headers: Self.versionHeaders(version))
    }
}
