/// Builds the children of a `carousel` or `grid`: components with
/// `if`/`else`, `switch`, `if let` and `for`-in.
///
/// Only ``Component`` values are accepted, so a `Step` or a `Next` inside a
/// screen does not compile; per-child `.size(…)` is accepted only by
/// ``StackBuilder``.
@resultBuilder
public enum ContentBuilder {
    /// A single component.
    public static func buildExpression<Kind>(_ component: Component<Kind>) -> Children {
        Children([component.draft])
    }

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
