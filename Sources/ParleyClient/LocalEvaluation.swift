public import ParleyCore

/// What the current step looks like for a set of answers, decided on the device with the
/// interpreter the server runs (DESIGN.md "Expressions"): which nodes are hidden, which answers
/// are therefore cleared, the flow's computed values, every template's text and the rules'
/// verdict. An app re-evaluates as the user types and renders from it; nothing is sent.
public struct LocalEvaluation: Sendable, Equatable {
    /// One template resolved to the text a person reads.
    public struct ResolvedText: Sendable, Equatable {
        /// The node whose property it is.
        public let nodeId: String
        /// The property (`text`, `label`, `title`, …).
        public let property: String
        /// The parts concatenated, empty values adding nothing.
        public let text: String
    }

    /// The core's decision for the step: visibility, cleared fields, kept answers, validation.
    public let step: StepEvaluation
    /// Every template of a visible node of the screen, resolved, in document order.
    public let texts: [ResolvedText]

    /// Ids of the nodes hidden by `visibleWhen` (a hidden node's subtree included).
    public var hiddenNodeIds: [String] { step.visibility.hiddenNodeIds }
    /// Field ids of hidden inputs: their answers are never sent.
    public var hiddenFields: [String] { step.visibility.hiddenFields }
    /// Given answers whose input is hidden: dropped before sending (the server's `cleared`).
    public var cleared: [String] { step.cleared }
    /// The answers a submit sends: the given ones without the cleared fields.
    public var answers: Answers { step.answers }
    /// The rules' verdict over the visible inputs.
    public var validation: ValidationOutcome { step.validation }

    /// Whether the node with this id is shown.
    public func isVisible(nodeId: String) -> Bool { !step.visibility.isHidden(nodeId: nodeId) }

    /// A computed value of the flow (empty when the snapshot declares no such name).
    public func computed(_ name: String) -> ExpressionValue { step.environment.computed(name) }

    /// The resolved text of a node's templated property, or `nil` when it holds no template.
    public func text(nodeId: String, property: String) -> String? {
        texts.first { $0.nodeId.isScalarEqual(to: nodeId) && $0.property == property }?.text
    }

    /// Evaluates `screen` for `answers` (this step's) over `context` (earlier steps' answers).
    static func evaluate(
        screen: Screen, computed: [ComputedValue], answers: Answers, context: Answers
    ) -> LocalEvaluation {
        let step = StepEvaluation.evaluate(
            screen: screen, computed: computed, answers: answers, context: context, mode: .client)
        var evaluator = ExpressionEvaluator(computed: computed, answers: step.environment.answers)
        var texts: [ResolvedText] = []
        var pending: [Node] = [screen.root]
        while let node = pending.popLast() {
            guard !step.visibility.isHidden(nodeId: node.id) else { continue }
            for (property, template) in node.templates {
                texts.append(ResolvedText(nodeId: node.id, property: property, text: evaluator.text(of: template)))
            }
            pending.append(contentsOf: node.children.reversed())
        }
        return LocalEvaluation(step: step, texts: texts)
    }
}
