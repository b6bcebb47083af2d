extension JSONCalls {
    /// `preview(request)`: `POST /v1/flows/preview` without a server — the request body
    /// `{flow, step?, core?, locale?, answers?, context?}` gives exactly the server's 200 body
    /// (``FlowPreview``); a request the server would refuse gives `{"error", "problem"}`, the
    /// problem document it would answer with. Answers are limited to the server's default length
    /// (``FlowPreview/defaultMaxAnswerLength``).
    public static func preview(request: [UInt8]) -> [UInt8] {
        do throws(CallProblem) {
            guard case .object(let body) = try parse(request, "request") else {
                throw CallProblem("request must be a JSON object")
            }
            do throws(PreviewRefusal) {
                return CanonicalJSON.encode(
                    try FlowPreview.respond(to: body, maxAnswerLength: FlowPreview.defaultMaxAnswerLength))
            } catch {
                return CanonicalJSON.encode(["error": .string(error.description), "problem": error.problem])
            }
        } catch {
            return failure(error.description)
        }
    }
}
