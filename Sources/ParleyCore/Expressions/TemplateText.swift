/// One template of a screen, resolved to the text a person reads (DESIGN.md "Expressions").
public struct TemplateText: Sendable, Equatable {
    /// The node whose property holds the template.
    public let nodeId: String
    /// The property (`text`, `label`, `title`…).
    public let property: String
    /// The parts concatenated.
    public let text: String

    /// Creates a resolved text.
    public init(nodeId: String, property: String, text: String) {
        self.nodeId = nodeId
        self.property = property
        self.text = text
    }

    /// `nodeId/property`: the key of ``StepEvaluation``'s texts in the harness and WebAssembly.
    public var key: String { "\(nodeId)/\(property)" }

    public static func == (lhs: TemplateText, rhs: TemplateText) -> Bool {
        lhs.nodeId.isScalarEqual(to: rhs.nodeId) && lhs.property.isScalarEqual(to: rhs.property)
            && lhs.text.isScalarEqual(to: rhs.text)
    }

    /// The templates of the visible nodes of `screen`, in document order.
    static func resolve(
        _ screen: Screen, visibility: ScreenVisibility, evaluator: inout ExpressionEvaluator
    ) -> [TemplateText] {
        var texts: [TemplateText] = []
        var pending: [Node] = [screen.root]
        while let node = pending.popLast() {
            if !visibility.hiddenNodeIds.isEmpty, visibility.isHidden(nodeId: node.id) { continue }
            for name in Template.textProperties {
                guard let value = node.properties[name], Template.isTemplate(value),
                    let template = try? Template(json: value, at: .root)
                else { continue }
                texts.append(TemplateText(nodeId: node.id, property: name, text: evaluator.text(of: template)))
            }
            pending.append(contentsOf: node.children.reversed())
        }
        return texts
    }
}
