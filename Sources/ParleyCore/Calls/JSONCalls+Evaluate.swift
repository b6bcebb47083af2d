extension JSONCalls {
    /// `evaluate(flow, stepId, answers, pathAnswers?, options?)`: what a step shows and decides for
    /// these answers — ``ExpressionHarness/evaluate(flow:step:answers:context:mode:)``, the one
    /// function the server's preview and `parley validate --harness` answer with:
    /// `{"cleared", "computed", "deferred", "errors", "hidden", "next", "texts", "valid", "visible"}`.
    ///
    /// `stepId` is plain text (default: the flow's `start`); `pathAnswers` are the answers of the
    /// session's earlier steps; `options.mode` is `"server"` (default) or `"client"`, and
    /// `options.locale` one of the flow's locales (default: its first).
    public static func evaluate(flow: [UInt8], step: [UInt8]?, answers: [UInt8], path: [UInt8]?, options: [UInt8]?)
        -> [UInt8]
    {
        do throws(CallProblem) {
            let settings = try Self.options(options, "options")
            let mode = try Self.mode(settings["mode"])
            let document = try parse(flow, "flow")
            var decoded: Flow
            do {
                decoded = try Flow(json: document, at: .root)
            } catch {
                throw CallProblem("flow: \(error.description)")
            }
            switch settings["locale"] {
            case nil, .null: break
            case .string(let locale) where decoded.locales.contains(locale): decoded = decoded.localized(to: locale)
            default: throw CallProblem("options.locale must be one of the flow's locales")
            }
            let stepId = step.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let chosen = stepId.isEmpty ? decoded.start : stepId
            guard let found = decoded.step(chosen) else {
                throw CallProblem("the flow has no step \"\(String(chosen.prefix(128)))\"")
            }
            let given = try Self.answers(answers, "answers")
            let earlier = try path.map { bytes throws(CallProblem) in try Self.answers(bytes, "pathAnswers") }
            let evaluation = ExpressionHarness.evaluate(
                flow: decoded, step: found, answers: given, context: earlier ?? Answers(), mode: mode)
            return CanonicalJSON.encode(evaluation)
        } catch {
            return failure(error.description)
        }
    }

    /// `harness(request)`: one expression request of the conformance harness
    /// (Tests/Conformance/README.md "Expression vectors"; ``ExpressionHarness``), answered exactly as
    /// `parley validate --harness` answers it, so web cores run the expression vectors unchanged.
    public static func harness(request: [UInt8]) -> [UInt8] {
        do throws(CallProblem) {
            guard let response = ExpressionHarness.response(to: try parse(request, "request")) else {
                throw CallProblem("request must hold \"expression\", \"predicate\", \"template\" or \"evaluate\"")
            }
            return CanonicalJSON.encode(response)
        } catch {
            return failure(error.description)
        }
    }

    /// `options.mode`: `"server"` (absent or null) or `"client"`.
    static func mode(_ value: JSONValue?) throws(CallProblem) -> RuleInterpreter.Mode {
        switch value {
        case nil, .null, .string("server"): return .server
        case .string("client"): return .client
        default: throw CallProblem("options.mode must be \"server\" or \"client\"")
        }
    }
}
