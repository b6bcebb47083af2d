public import ParleyCore

/// A computed value of the flow (docs/expressions.md: `"computed": {"name": expression}`),
/// in one of two roles told apart by the type, so neither can stand in for the other:
///
/// - `Computed("premium")` reads the value, in predicates (`Computed("premium") > "100"`),
///   formulas and templates (`"your premium is \(Computed("premium"))"`);
/// - `Computed("premium") { .round(.mul(Field("tripCost"), "0.04"), scale: 2) }`, among a
///   flow's steps, declares it.
///
/// Computed names share no namespace with field ids, so a `Computed` is never a ``Field``: an
/// input or a rule given one does not compile.
public struct Computed<Role: ComputedRole>: Sendable {
    /// The computed value's name.
    public let name: String
    /// The declared formula; set only in the ``ComputedRoles/Declaration`` role.
    let expression: Expression?
}

/// The role of a ``Computed``: reading a value or declaring it.
public protocol ComputedRole: Sendable {}

/// The roles of a ``Computed``.
public enum ComputedRoles {
    /// `Computed("premium")`: reads the value (`{"computed": "premium"}`).
    public enum Reference: ComputedRole {}
    /// `Computed("premium") { … }`: declares it, accepted only among a flow's steps.
    public enum Declaration: ComputedRole {}
}

extension Computed where Role == ComputedRoles.Reference {
    /// Reads the flow's computed value `name`.
    public init(_ name: String) {
        self.name = name
        expression = nil
    }
}

extension Computed: ValueSubject where Role == ComputedRoles.Reference {
    /// `{"computed": name}`.
    public var subject: ValueReference { .computed(name) }
}

extension Computed where Role == ComputedRoles.Declaration {
    /// Declares the flow's computed value `name` as the formula `body` builds.
    public init(_ name: String, @FormulaBuilder _ body: () -> Formula) {
        self.name = name
        expression = body().expression
    }

    /// The model value.
    public var value: ComputedValue { ComputedValue(name: name, expression: expression ?? .literal("")) }
}
