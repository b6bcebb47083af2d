import ParleyCore
import ParleyHTTP

extension FlowHandlers {
    /// `POST /v1/flows/preview` `{flow, step?, core?, locale?, answers?, context?}`: an unsaved
    /// draft's step gated exactly as `GET /v1/screens` would serve it, for `core` or for every
    /// supported core, each with its report and deferred rules (in `locale`, default the flow's
    /// first); with `answers`, the server-mode interpreter's outcome and the step the flow's `next`
    /// chooses. Stores nothing (DESIGN.md "HTTP API").
    func previewFlow(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let body = try JSONBody.object(request)
        guard let document = body["flow"], case .object = document else {
            throw ServiceProblem.malformedBody("\"flow\" is required: the flow document to preview")
        }
        var flow = try Self.lintedFlow(document)
        if let member = body["locale"] {
            guard case .string(let locale) = member, flow.locales.contains(locale) else {
                throw ServiceProblem.malformedBody(
                    "\"locale\" must be one of the flow's locales: " + flow.locales.joined(separator: ", "))
            }
            flow = flow.localized(to: locale)
        }
        var stepId = flow.start
        if let member = body["step"] {
            guard case .string(let named) = member else {
                throw ServiceProblem.malformedBody("\"step\" must be the id of a step of the flow")
            }
            stepId = named
        }
        guard let step = flow.step(stepId) else {
            throw ServiceProblem.malformedBody("the flow has no step \"\(stepId.prefix(128))\"")
        }
        var result = JSONObject()
        result["flow"] = .string(flow.id)
        result["step"] = .string(step.id)
        result["cores"] = .array(
            try Self.previewCores(body["core"]).compactMap { core in
                guard
                    case .object(var gated) = Gate(capabilities: CapabilitySet(core: core)).gate(flow, step: step.id)?
                        .json
                else { return nil }
                gated["core"] = .string(core.description)
                gated["flow"] = .string(flow.id)
                return .object(gated)
            })
        if body["answers"] != nil {
            result["outcome"] = try previewOutcome(body, step)
        }
        return Self.json(.object(result))
    }

    /// The one core asked for, else every supported core.
    private static func previewCores(_ member: JSONValue?) throws(HTTPError) -> [CoreVersion] {
        guard let member else { return CoreVersion.supported }
        guard case .string(let text) = member, let core = try? CoreVersion(parsing: text) else {
            throw ServiceProblem.malformedBody("\"core\" must be a core version such as \"1.2.0\"")
        }
        return [core]
    }

    /// The interpreter's outcome for `answers` (with `context`, the answers of earlier steps) and,
    /// when valid, the step `next` leads to.
    private func previewOutcome(_ body: JSONObject, _ step: Step) throws(HTTPError) -> JSONValue {
        let longest = configuration.maxAnswerLength
        let answers = try SessionRequest.answers(body, maxLength: longest)
        let earlier =
            body["context"] == nil ? Answers() : try SessionRequest.answers(body, maxLength: longest, member: "context")
        return Self.outcome(of: step, answers: answers, context: earlier)
    }

    /// The server-mode interpreter's outcome for one step (the full rule set, deferred rules
    /// included, `context` as the answers of earlier steps) and, when valid, the step `next` chooses.
    static func outcome(of step: Step, answers: Answers, context earlier: Answers) -> JSONValue {
        let outcome = RuleInterpreter(mode: .server).validate(screen: step.screen, answers: answers, context: earlier)
        guard case .object(var result) = outcome.json else { return outcome.json }
        // `next` reads fields the way the rules do (this step's from its answers, others from the path).
        if outcome.valid, let next = step.nextStepId(for: answers, context: earlier) {
            result["next"] = .string(next)
        }
        return .object(result)
    }
}
