import ParleyCore
import ParleyHTTP

extension Handlers {
    /// `POST /v1/flows/{flow}/submit` `{version, step, answers}`: re-validate with
    /// the full rule set of that exact version (deferred rules included), record
    /// the outcome, and answer 422 with the interpreter's errors or 200 with the
    /// next step gated for the same core.
    func submit(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let flowId = try Self.parameter("flow", requestContext)
        let core = try context.cores.resolve(request)
        let body = try JSONBody.object(request)
        guard let number = body["version"]?.numberValue?.intValue, number > 0 else {
            throw ServiceProblem.malformedBody("\"version\" must be the positive version number you were served")
        }
        guard case .string(let stepId) = body["step"] else {
            throw ServiceProblem.malformedBody("\"step\" must be the id of the step you submit")
        }
        guard let answersValue = body["answers"] else {
            throw ServiceProblem.malformedBody("\"answers\" is required: an object of field id → string or null")
        }
        let answers: Answers
        do {
            answers = try Answers(answersValue)
        } catch {
            throw ServiceProblem.malformedBody("\"answers\": \(error)")
        }
        let longest = context.configuration.maxAnswerLength
        if let field = answers.fieldIds.first(where: { (answers[$0]?.unicodeScalars.count ?? 0) > longest }) {
            throw ServiceProblem.malformedBody("the answer for \"\(field)\" is longer than \(longest) characters")
        }
        guard let version = try await context.version(flow: flowId, number: number) else {
            throw ServiceProblem.notFound("flow \"\(flowId)\" has no version \(number)")
        }
        if !context.live.isKnownReleased(flow: flowId, number: number) {
            guard try await context.flows.wasReleased(flowId, version: number) else {
                throw ServiceProblem.conflict(
                    "version-not-released", "version \(number) of flow \"\(flowId)\" was never released")
            }
            context.live.rememberReleased(flow: flowId, number: number)
        }
        guard let step = version.flow.step(stepId) else {
            throw ServiceProblem.notFound("version \(number) of flow \"\(flowId)\" has no step \"\(stepId)\"")
        }
        let outcome = RuleInterpreter(mode: .server).validate(screen: step.screen, answers: answers)
        let next = outcome.valid ? step.nextStepId(for: answers) : nil
        try await context.submissions.record(
            flowId: flowId, version: number, step: step.id, core: core.core.description, answers: answers.json,
            outcome: outcome, nextStep: next)
        context.metrics.increment("parley_submits_total", labels: [("outcome", outcome.valid ? "valid" : "invalid")])
        guard outcome.valid else {
            for error in outcome.errors {
                context.metrics.increment(
                    "parley_submit_rejections_total", labels: [("rule", error.rule), ("core", core.label)])
            }
            throw ServiceProblem.invalidAnswers(outcome)
        }
        guard let next else {
            return Self.json(["done": true, "version": .number(JSONNumber(number))])
        }
        guard let entry = context.screens.render(version, step: next, for: core) else {
            throw ServiceProblem.notFound("the flow's transition names a missing step \"\(next)\"")
        }
        recordGating(entry, core: core)
        var bytes = Array(#"{"done":false,"next":"#.utf8) + CanonicalJSON.encode(.string(next))
        bytes += Array(#","screen":"#.utf8) + entry.body + [UInt8(ascii: "}")]
        return .json(bytes, headers: ["Parley-Flow-Version": String(number), "Parley-Served": entry.served])
    }
}
