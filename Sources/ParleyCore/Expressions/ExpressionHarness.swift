/// The expression requests of the conformance harness (Tests/Conformance/README.md "Expression
/// vectors"): JSON in, JSON out, so `parley validate --harness`, the WebAssembly build and other
/// cores' harnesses answer them identically.
///
/// | request | response |
/// |---|---|
/// | `{"expression", "computed"?, "answers"}` | `{"value": string or null}` |
/// | `{"predicate", "computed"?, "answers"}` | `{"holds": bool}` |
/// | `{"template", "computed"?, "answers"}` | `{"text": string}` |
/// | `{"evaluate": {"flow", "step", "answers", "context"?, "mode"?, "locale"?}}` | `{"cleared", "hidden", "valid", "errors", "deferred", "next", "computed", "texts"}` |
public enum ExpressionHarness {
    /// The response to an expression request; `nil` when `request` is none of them.
    public static func response(to request: JSONValue) -> JSONValue? {
        guard
            request["expression"] != nil || request["predicate"] != nil || request["template"] != nil
                || request["evaluate"] != nil
        else { return nil }
        do throws(ModelDecodingError) {
            if let evaluate = request["evaluate"] { return try step(evaluate) }
            var computed: [ComputedValue] = []
            if let list = request["computed"] { computed = try ComputedValue.decodeList(list, at: .root) }
            var evaluator = ExpressionEvaluator(computed: computed, answers: try answers(request["answers"]))
            if let expression = request["expression"] {
                return ["value": evaluator.value(of: try Expression(json: expression, at: .root)).json]
            }
            if let predicate = request["predicate"] {
                return ["holds": .bool(evaluator.holds(try Predicate(json: predicate, at: .root)))]
            }
            return ["text": .string(evaluator.text(of: try Template(json: request["template"]!, at: .root)))]
        } catch {
            return ["error": .string(error.description)]
        }
    }

    /// `{"flow", "step", "answers", "context"?, "mode"?, "locale"?}` → the step's evaluation.
    private static func step(_ request: JSONValue) throws(ModelDecodingError) -> JSONValue {
        guard let document = request["flow"] else { return ["error": "an evaluate request needs a \"flow\""] }
        var flow = try Flow(json: document, at: .root)
        if let locale = request["locale"]?.stringValue { flow = flow.localized(to: locale) }
        guard let stepId = request["step"]?.stringValue, let step = flow.step(stepId) else {
            return ["error": "the flow has no such \"step\""]
        }
        let mode: RuleInterpreter.Mode = request["mode"]?.stringValue == "client" ? .client : .server
        // The vectors pin StepEvaluation's own form; ``evaluate(flow:step:answers:context:mode:)``
        // adds the `visible` map for the preview and the WebAssembly module.
        return StepEvaluation.evaluate(
            flow: flow, step: step, answers: try answers(request["answers"]), context: try answers(request["context"]),
            mode: mode
        ).json
    }

    /// What a step shows and decides for these answers, as JSON: ``StepEvaluation/json`` plus
    /// `"visible": {nodeId: bool}` for every node of the screen (`evaluate` in
    /// docs/webassembly.md). The server's preview, the studio's "Try it", the harness and the
    /// WebAssembly module all answer with this one function, so they cannot drift.
    public static func evaluate(
        flow: Flow, step: Step, answers: Answers, context: Answers = Answers(), mode: RuleInterpreter.Mode = .server
    ) -> JSONValue {
        let evaluation = StepEvaluation.evaluate(flow: flow, step: step, answers: answers, context: context, mode: mode)
        guard case .object(var object) = evaluation.json else { return evaluation.json }
        var visible = JSONObject()
        var pending = [step.screen.root]
        while let node = pending.popLast() {
            visible[node.id] = .bool(!evaluation.visibility.isHidden(nodeId: node.id))
            pending.append(contentsOf: node.children.reversed())
        }
        object["visible"] = .object(visible)
        return .object(object)
    }

    private static func answers(_ value: JSONValue?) throws(ModelDecodingError) -> Answers {
        guard let value, !value.isNull else { return Answers() }
        do {
            return try Answers(value)
        } catch {
            throw .invalidValue(error.pointer, error.message)
        }
    }
}

extension StepEvaluation {
    /// `{"cleared", "hidden", "valid", "errors", "deferred", "next", "computed", "texts"}`: the
    /// harness's and WebAssembly's wire form.
    public var json: JSONValue {
        var texts = JSONObject()
        for text in self.texts { texts[text.key] = .string(text.text) }
        return [
            "cleared": .array(cleared.map(JSONValue.string)),
            "hidden": .array(visibility.hiddenNodeIds.map(JSONValue.string)),
            "valid": .bool(validation.valid), "errors": .array(validation.errors.map { $0.json }),
            "deferred": .array(validation.deferred.map { $0.json }), "next": nextStepId.map(JSONValue.string) ?? .null,
            "computed": environment.computedJSON, "texts": .object(texts),
        ]
    }
}
