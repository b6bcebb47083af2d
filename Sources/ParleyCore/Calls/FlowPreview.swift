/// `POST /v1/flows/preview` as a pure function (docs/http-api.md): an unsaved draft's step
/// gated exactly as `GET /v1/screens` would serve it, for one core or every supported core (with
/// `context`, as a session on that path would serve it), and, with answers, the server's outcome
/// and the step's evaluation. The server's handler and the
/// WebAssembly module's `preview` call (the studio, offline) both answer with it, so a local
/// preview cannot drift from the server's.
public enum FlowPreview {
    /// The longest single answer, in Unicode scalars, unless the server is configured otherwise
    /// (`ServiceConfiguration.maxAnswerLength`); longer ones are refused before any rule runs.
    public static let defaultMaxAnswerLength = 10_000

    /// The preview's body for a request `{flow, step?, core?, locale?, answers?, context?}`;
    /// answers longer than `maxAnswerLength` scalars are refused, as the server refuses them.
    public static func respond(to body: JSONObject, maxAnswerLength: Int) throws(PreviewRefusal) -> JSONValue {
        guard let document = body["flow"], case .object = document else {
            throw .malformedBody("\"flow\" is required: the flow document to preview")
        }
        let problems = FlowLinter().lint(flow: document)
        guard problems.isEmpty else { throw .lintFailed(problems) }
        var flow: Flow
        do {
            flow = try Flow(json: document, at: .root)
        } catch {
            throw .malformedBody(error.description)
        }
        if let member = body["locale"] {
            guard case .string(let locale) = member, flow.locales.contains(locale) else {
                throw .malformedBody(
                    "\"locale\" must be one of the flow's locales: " + flow.locales.joined(separator: ", "))
            }
            flow = flow.localized(to: locale)
        }
        var stepId = flow.start
        if let member = body["step"] {
            guard case .string(let named) = member else {
                throw .malformedBody("\"step\" must be the id of a step of the flow")
            }
            stepId = named
        }
        guard let step = flow.step(stepId) else {
            throw .malformedBody("the flow has no step \"\(String(stepId.prefix(128)))\"")
        }
        let path = body["context"] == nil ? nil : try Self.answers(body, "context", maxLength: maxAnswerLength)
        var result = JSONObject()
        result["flow"] = .string(flow.id)
        result["step"] = .string(step.id)
        result["cores"] = .array(try cores(body["core"]).compactMap { gated(step, of: flow, for: $0, path: path) })
        if body["answers"] != nil {
            let answers = try Self.answers(body, "answers", maxLength: maxAnswerLength)
            let earlier = path ?? Answers()
            result["outcome"] = outcome(of: step, in: flow, answers: answers, context: earlier)
            // What the step shows for these answers: fields appearing, recalled texts, computed values.
            result["evaluation"] = ExpressionHarness.evaluate(
                flow: flow, step: step, answers: answers, context: earlier)
        }
        return .object(result)
    }

    /// The server's outcome for one step of `flow`, exactly as a session answer is judged
    /// (docs/expressions.md): hidden inputs skipped and their answers listed in `cleared`, the full
    /// rule set (deferred rules included), `context` as the answers of earlier steps and, when valid,
    /// the step `next` chooses over the answers and the flow's computed values.
    public static func outcome(of step: Step, in flow: Flow, answers: Answers, context earlier: Answers) -> JSONValue {
        // Judging answers reads no template (the evaluation beside it resolves the texts).
        let evaluation = StepEvaluation.evaluate(
            flow: flow, step: step, answers: answers, context: earlier, resolvingTexts: false)
        guard case .object(var result) = evaluation.validation.json else { return evaluation.validation.json }
        result["cleared"] = .array(evaluation.cleared.map(JSONValue.string))
        if let next = evaluation.nextStepId { result["next"] = .string(next) }
        return .object(result)
    }

    /// One core's column: the step as `GET /v1/screens` serves it, with `core` and `flow`. With
    /// `path` (the answers of earlier steps) the step is served as a session on that path would
    /// serve it: what reads earlier steps resolved (docs/expressions.md), so "Try it" shows
    /// recalled answers.
    private static func gated(_ step: Step, of flow: Flow, for core: CoreVersion, path: Answers?) -> JSONValue? {
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
    }

    /// The one core asked for, else every supported core.
    private static func cores(_ member: JSONValue?) throws(PreviewRefusal) -> [CoreVersion] {
        guard let member else { return CoreVersion.supported }
        guard case .string(let text) = member, let core = try? CoreVersion(parsing: text) else {
            throw .malformedBody("\"core\" must be a core version such as \"1.2.0\"")
        }
        return [core]
    }

    /// The answers in `member`, each at most `maxLength` scalars (the server's limit on submits).
    private static func answers(_ body: JSONObject, _ member: String, maxLength: Int) throws(PreviewRefusal) -> Answers
    {
        guard let value = body[member] else {
            throw .malformedBody("\"\(member)\" is required: an object of field id → string or null")
        }
        let answers: Answers
        do {
            answers = try Answers(value)
        } catch {
            throw .malformedBody("\"\(member)\": \(error.description)")
        }
        if let field = answers.fieldIds.first(where: { (answers[$0]?.unicodeScalars.count ?? 0) > maxLength }) {
            throw .malformedBody("the answer for \"\(field)\" is longer than \(maxLength) characters")
        }
        return answers
    }
}
