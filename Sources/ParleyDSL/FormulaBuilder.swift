/// Builds the single formula of a ``Computed`` declaration: a formula, a field, a computed
/// reference or a string literal; Swift `if`/`else` choose between formulas while the flow is
/// built (the wire's `if` is ``Formula/if(_:then:else:)``).
@resultBuilder
public enum FormulaBuilder {
    /// A formula.
    public static func buildExpression(_ formula: Formula) -> Formula { formula }

    /// A field's answer.
    public static func buildExpression(_ field: Field) -> Formula { field.formula }

    /// Another computed value.
    public static func buildExpression(_ computed: Computed<ComputedRoles.Reference>) -> Formula {
        computed.formula
    }

    /// A literal.
    public static func buildExpression(_ literal: String) -> Formula { literal.formula }

    /// Exactly one formula.
    public static func buildBlock(_ formula: Formula) -> Formula { formula }

    /// The `if` branch.
    public static func buildEither(first formula: Formula) -> Formula { formula }

    /// The `else` branch.
    public static func buildEither(second formula: Formula) -> Formula { formula }
}
