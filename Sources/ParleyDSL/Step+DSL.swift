public import ParleyCore

extension Step {
    /// A step whose screen has the step's id: `Step("country", title: "Passport") { … } next: { … }`.
    ///
    /// An empty `next` ends the flow.
    public init(
        _ id: String, title: String? = nil, spacing: Spacing? = nil, alignment: HorizontalAlignment? = nil,
        @StackBuilder content: () -> Children, @NextBuilder next: () -> [Transition] = { [] }
    ) {
        let screen = Screen(id, title: title, spacing: spacing, alignment: alignment, content: content)
        self.init(id: id, screen: screen, next: next())
    }

    /// A step showing an already built screen.
    public init(_ id: String, screen: Screen, @NextBuilder next: () -> [Transition] = { [] }) {
        self.init(id: id, screen: screen, next: next())
    }
}

/// Builds a flow's steps and computed values. Only `Step` values and `Computed` declarations are
/// accepted, so steps appear only inside flows and nothing else appears among steps.
@resultBuilder
public enum StepBuilder {
    /// A single step.
    public static func buildExpression(_ step: Step) -> FlowContent { FlowContent(steps: [step]) }

    /// A computed value of the flow: `Computed("premium") { … }`.
    public static func buildExpression(_ computed: Computed<ComputedRoles.Declaration>) -> FlowContent {
        FlowContent(computed: [computed.value])
    }

    /// Statements in order.
    public static func buildBlock(_ parts: FlowContent...) -> FlowContent { FlowContent(joining: parts) }

    /// `if` without `else`, `if let`.
    public static func buildOptional(_ part: FlowContent?) -> FlowContent { part ?? FlowContent() }

    /// The `if` branch (or a `switch` case).
    public static func buildEither(first part: FlowContent) -> FlowContent { part }

    /// The `else` branch (or a `switch` case).
    public static func buildEither(second part: FlowContent) -> FlowContent { part }

    /// `for`-in.
    public static func buildArray(_ parts: [FlowContent]) -> FlowContent { FlowContent(joining: parts) }
}
