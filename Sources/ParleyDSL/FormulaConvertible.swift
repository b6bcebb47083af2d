import ParleyCore

/// What a ``Formula`` accepts as an operand.
public protocol FormulaConvertible: Sendable {
    /// The operand as a formula.
    var formula: Formula { get }
}

extension Field: FormulaConvertible {
    /// `{"field": name}`: the answer; a hidden field reads as empty.
    public var formula: Formula { Formula(.field(name)) }
}

extension Computed: FormulaConvertible where Role == ComputedRoles.Reference {
    /// `{"computed": name}`.
    public var formula: Formula { Formula(.computed(name)) }
}

extension String: FormulaConvertible {
    /// `{"literal": self}`: numbers are written as strings, like the wire.
    public var formula: Formula { Formula(.literal(self)) }
}
