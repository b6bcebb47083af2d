public import ParleyCore

/// What the current step looks like for a set of answers, decided on the device with the
/// interpreter the server runs (docs/expressions.md): which nodes are hidden, which answers
/// are therefore cleared, the flow's computed values, every template's text and the rules'
/// verdict. An app re-evaluates as the user types and renders from it; nothing is sent.
public struct LocalEvaluation: Sendable, Equatable {
    /// The core's decision for the step: visibility, cleared fields, kept answers, computed
    /// values, templates' texts, validation.
    public let step: StepEvaluation

    /// Every template of a visible node of the screen, resolved by the core, in document order.
    public var texts: [TemplateText] { step.texts }

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

    /// Every computed value the snapshot declares, in the flow's order.
    public var computedValues: [(name: String, value: ExpressionValue)] { step.environment.computedValues }

    /// The resolved text of a node's templated property, or `nil` when it holds no template.
    public func text(nodeId: String, property: String) -> String? {
        texts.first { $0.nodeId.isScalarEqual(to: nodeId) && $0.property == property }?.text
    }

    /// Evaluates `screen` for `answers` (this step's) over `context` (earlier steps' answers).
    static func evaluate(
        screen: Screen, computed: [ComputedValue], answers: Answers, context: Answers
    ) -> LocalEvaluation {
        LocalEvaluation(
            step: StepEvaluation.evaluate(
                screen: screen, computed: computed, answers: answers, context: context, mode: .client))
    }
}
