/// Builds the children of a `vstack`/`hstack`/`card` (and a screen's root):
/// like ``ContentBuilder`` and additionally accepts ``Sized`` children,
/// because per-child `size` is meaningful only there (docs/wire-format.md "Screen";
/// the capability registry's child properties).
@resultBuilder
public enum StackBuilder {
    /// A single component.
    public static func buildExpression<Kind>(_ component: Component<Kind>) -> Children {
        Children([component.draft])
    }

    /// A component with a stack size.
    public static func buildExpression(_ sized: Sized) -> Children { Children([sized.draft]) }

    /// Statements in order.
    public static func buildBlock(_ parts: Children...) -> Children { Children(parts.flatMap(\.drafts)) }

    /// `if` without `else`, `if let`.
    public static func buildOptional(_ part: Children?) -> Children { part ?? Children([]) }

    /// The `if` branch (or a `switch` case).
    public static func buildEither(first part: Children) -> Children { part }

    /// The `else` branch (or a `switch` case).
    public static func buildEither(second part: Children) -> Children { part }

    /// `for`-in.
    public static func buildArray(_ parts: [Children]) -> Children { Children(parts.flatMap(\.drafts)) }

    /// `if #available`.
    public static func buildLimitedAvailability(_ part: Children) -> Children { part }
}
