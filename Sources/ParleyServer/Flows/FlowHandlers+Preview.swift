import ParleyCore
import ParleyHTTP

extension FlowHandlers {
    /// `POST /v1/flows/preview` `{flow, step?, core?, locale?, answers?, context?}`: an unsaved
    /// draft's step gated exactly as `GET /v1/screens` would serve it, for `core` or for every
    /// supported core, each with its report and deferred rules (in `locale`, default the flow's
    /// first); with `answers`, the server-mode interpreter's outcome and the step the flow's `next`
    /// chooses. Stores nothing (DESIGN.md "HTTP API"). The body is ParleyCore's ``FlowPreview``, the
    /// very function the WebAssembly module's `preview` call runs in the studio.
    func previewFlow(_ request: HTTPRequest, _ requestContext: RequestContext, _ caller: Caller) async throws
        -> HTTPResponse
    {
        let body = try JSONBody.object(request)
        do throws(PreviewRefusal) {
            return Self.json(try FlowPreview.respond(to: body, maxAnswerLength: configuration.maxAnswerLength))
        } catch {
            switch error {
            case .lintFailed(let problems): throw ServiceProblem.lintFailed(problems)
            case .malformedBody(let detail): throw ServiceProblem.malformedBody(detail)
            }
        }
    }

    /// The server's outcome for one step of `flow`, exactly as a session answer is judged
    /// (``FlowPreview/outcome(of:in:answers:context:)``).
    static func outcome(of step: Step, in flow: Flow, answers: Answers, context earlier: Answers) -> JSONValue {
        FlowPreview.outcome(of: step, in: flow, answers: answers, context: earlier)
    }
}
