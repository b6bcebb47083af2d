public import ParleyCore

/// One transition of a step, as data: `Next(when: Field("purpose") == "work", go: "employer")`.
///
/// Only ``NextBuilder`` accepts it, so a `Next` outside a step's `next:` block does not compile.
public struct Next: Sendable {
    /// The transition.
    public let transition: Transition

    /// Go to `step` when `predicate` holds.
    public init(when predicate: Predicate, go step: String) {
        transition = Transition(when: predicate, goto: step)
    }

    /// Always go to `step` (put it last: the first matching entry wins).
    public init(go step: String) {
        transition = Transition(goto: step)
    }
}

/// Builds a step's ordered `next` list.
@resultBuilder
public enum NextBuilder {
    /// A single transition.
    public static func buildExpression(_ next: Next) -> [Transition] { [next.transition] }

    /// Statements in order.
    public static func buildBlock(_ parts: [Transition]...) -> [Transition] { parts.flatMap { $0 } }

    /// `if` without `else`, `if let`.
    public static func buildOptional(_ part: [Transition]?) -> [Transition] { part ?? [] }

    /// The `if` branch (or a `switch` case).
    public static func buildEither(first part: [Transition]) -> [Transition] { part }

    /// The `else` branch (or a `switch` case).
    public static func buildEither(second part: [Transition]) -> [Transition] { part }

    /// `for`-in.
    public static func buildArray(_ parts: [[Transition]]) -> [Transition] { parts.flatMap { $0 } }
}
