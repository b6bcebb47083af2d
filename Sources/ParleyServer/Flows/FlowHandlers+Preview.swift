import ParleyCore
import ParleyHTTP

extension FlowHandlers {
    /// `POST /v1/flows/preview` `{flow, step?, core?, locale?, answers?, context?}`: an unsaved
    /// draft's step gated exactly as `GET /v1/screens` would serve it, for `core` or for every
    /// supported core, each with its report and deferred rules (in `locale`, default the flow's
    /// first); with `answers`, the server-mode interpreter's outcome and the step the flow's `next`
    /// chooses. With `context` (the answers of earlier steps) each core is served the step as a
    /// session on that path would serve it: what reads earlier steps resolved (DESIGN.md
    /// "Expressions"), so the studio's "Try it" shows recalled answers. Stores nothing (DESIGN.md
    /// "HTTP API").
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
        let path = try previewPath(body)
        var result = JSONObject()
        result["flow"] = .string(flow.id)
        result["step"] = .string(step.id)
        result["cores"] = .array(
            try Self.previewCores(body["core"]).compactMap { core in
                let capabilities = CapabilitySet(core: core)
                var served = flow
                if let path, let index = flow.steps.firstIndex(where: { $0.id.isScalarEqual(to: step.id) }) {
                    served.steps[index].screen =
                        SnapshotResolver.resolve(
                            flow: flow, step: step, context: path, liveExpressions: capabilities.resolvesTemplates
                        ).screen
                }
                guard case .object(var gated) = Gate(capabilities: capabilities).gate(served, step: step.id)?.json
                else { return nil }
                gated["core"] = .string(core.description)
                gated["flow"] = .string(flow.id)
                return .object(gated)
            })
        if body["answers"] != nil {
            let (answers, earlier) = try previewAnswers(body)
            result["outcome"] = Self.outcome(of: step, in: flow, answers: answers, context: earlier)
            // What the step shows for these answers: fields appearing, recalled texts, computed values.
            result["evaluation"] = ExpressionHarness.evaluate(
                flow: flow, step: step, answers: answers, context: earlier)
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

    /// The preview's `context` when it has one (the answers of earlier steps), else nil.
    private func previewPath(_ body: JSONObject) throws(HTTPError) -> Answers? {
        guard body["context"] != nil else { return nil }
        return try SessionRequest.answers(body, maxLength: configuration.maxAnswerLength, member: "context")
    }

    /// The preview's `answers` and `context` (the answers of earlier steps).
    private func previewAnswers(_ body: JSONObject) throws(HTTPError) -> (Answers, Answers) {
        let longest = configuration.maxAnswerLength
        let answers = try SessionRequest.answers(body, maxLength: longest)
        let earlier =
            body["context"] == nil ? Answers() : try SessionRequest.answers(body, maxLength: longest, member: "context")
        return (answers, earlier)
    }

    /// The server's outcome for one step of `flow`, exactly as a session answer is judged (DESIGN.md
    /// "Expressions"): hidden inputs skipped and their answers listed in `cleared`, the full rule
    /// set (deferred rules included), `context` as the answers of earlier steps and, when valid,
    /// the step `next` chooses over the answers and the flow's computed values.
    static func outcome(of step: Step, in flow: Flow, answers: Answers, context earlier: Answers) -> JSONValue {
        let evaluation = StepEvaluation.evaluate(flow: flow, step: step, answers: answers, context: earlier)
        guard case .object(var result) = evaluation.validation.json else { return evaluation.validation.json }
        result["cleared"] = .array(evaluation.cleared.map(JSONValue.string))
        if let next = evaluation.nextStepId { result["next"] = .string(next) }
        return .object(result)
    }
}
