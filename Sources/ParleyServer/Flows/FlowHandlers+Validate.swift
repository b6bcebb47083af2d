import ParleyCore
import ParleyHTTP

extension FlowHandlers {
    /// `POST /v1/flows/{flow}/validate` `{version, step, answers, context?}`: the interpreter's outcome
    /// for one step of a released version, with the full rule set (deferred rules included) and
    /// `context` as the answers of earlier steps. A dry run for previews and tests: nothing is
    /// stored and nothing counts; only sessions make answers count (DESIGN.md "Sessions").
    func validateStep(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let flowId = try RequestInput.parameter("flow", requestContext)
        let body = try JSONBody.object(request)
        guard let number = body["version"]?.numberValue?.intValue, number > 0 else {
            throw ServiceProblem.malformedBody("\"version\" must be the positive number of a released version")
        }
        guard case .string(let stepId) = body["step"] else {
            throw ServiceProblem.malformedBody("\"step\" must be the id of the step to validate")
        }
        let longest = configuration.maxAnswerLength
        let answers = try SessionRequest.answers(body, maxLength: longest)
        let earlier =
            body["context"] == nil ? Answers() : try SessionRequest.answers(body, maxLength: longest, member: "context")
        guard let version = try await versions.version(flow: flowId, number: number),
            try await isReleased(flowId, number)
        else {
            throw ServiceProblem.notFound("flow \"\(flowId)\" has no released version \(number)")
        }
        let locale = locales.locale(request, version)
        guard let step = version.flow(in: locale).step(stepId) else {
            throw ServiceProblem.notFound("version \(number) of flow \"\(flowId)\" has no step \"\(stepId)\"")
        }
        var response = Self.json(Self.outcome(of: step, answers: answers, context: earlier))
        if let locale { response.headers.set("Content-Language", locale) }
        return response
    }

    /// Whether the version was ever released on any channel (remembered once known).
    private func isReleased(_ flowId: String, _ number: Int) async throws -> Bool {
        if versions.cache.isKnownReleased(flow: flowId, number: number) { return true }
        guard try await flows.wasReleased(flowId, version: number) else { return false }
        versions.cache.rememberReleased(flow: flowId, number: number)
        return true
    }
}
