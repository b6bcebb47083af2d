extension StepEvaluation {
    /// What a screen shows for these answers, as JSON (DESIGN.md "ParleyCore in WebAssembly",
    /// `evaluate`): `{"visible": {nodeId: bool}, "computed": {name: value | null}, "texts": {nodeId:
    /// {property: text}}, "cleared": [fieldId…]}`. Every node of the screen is listed in `visible`
    /// (fallbacks stand in for their node and are not listed); `texts` holds every template's text
    /// with this evaluation's answers. The studio's preview, "Try it" and web cores render from it,
    /// so they show exactly what the server decides.
    public static func report(flow: Flow, step: Step, answers: Answers, context: Answers = Answers()) -> JSONValue {
        let evaluation = evaluate(flow: flow, step: step, answers: answers, context: context)
        var evaluator = ExpressionEvaluator(computed: flow.computed, answers: evaluation.environment.answers)
        var visible = JSONObject()
        var texts = JSONObject()
        var pending = [step.screen.root]
        while let node = pending.popLast() {
            visible[node.id] = .bool(!evaluation.visibility.isHidden(nodeId: node.id))
            var resolved = JSONObject()
            for (property, template) in node.templates {
                resolved[property] = .string(evaluator.text(of: template))
            }
            if !resolved.isEmpty { texts[node.id] = .object(resolved) }
            pending.append(contentsOf: node.children.reversed())
        }
        var computed = JSONObject()
        for (name, value) in evaluator.computedValues() {
            computed[name] = value.json
        }
        return [
            "visible": .object(visible), "computed": .object(computed), "texts": .object(texts),
            "cleared": .array(evaluation.cleared.map(JSONValue.string)),
        ]
    }
}
