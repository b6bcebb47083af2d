public import ParleyCore

/// An expression under construction (docs/expressions.md): what a ``Computed`` declares and
/// what a template or another formula may embed, built from named forms that map one to one to
/// the wire's:
///
///     .round(.mul(Field("tripCost"), Field("travellers"), "0.004"), scale: 2)
///
/// Operands are anything ``FormulaConvertible``: a ``Field``, a ``Computed`` reference, another
/// formula, or a `String` (a `literal`). Numbers are strings, so a `Double` or `Int` operand
/// does not compile. Nothing is evaluated here.
public struct Formula: Sendable, FormulaConvertible {
    /// The wire expression.
    public let expression: Expression

    /// Wraps an expression.
    public init(_ expression: Expression) { self.expression = expression }

    /// Itself.
    public var formula: Formula { self }
}

// The forms are declared on the protocol for `Self == Formula` (SE-0299), so the leading-dot
// spelling `.round(.mul(…), scale: 2)` also resolves where an operand is expected.
extension FormulaConvertible where Self == Formula {
    /// `{"literal": "…"}`.
    public static func literal(_ text: String) -> Formula { Formula(.literal(text)) }

    /// `{"add": [e…]}`: the exact decimal sum.
    public static func add(_ operands: any FormulaConvertible...) -> Formula {
        Formula(.add(Formula.expressions(operands)))
    }

    /// `{"sub": [a, b]}`: `a − b`.
    public static func sub(_ minuend: some FormulaConvertible, _ subtrahend: some FormulaConvertible) -> Formula {
        Formula(.sub(minuend.formula.expression, subtrahend.formula.expression))
    }

    /// `{"mul": [e…]}`: the exact product.
    public static func mul(_ operands: any FormulaConvertible...) -> Formula {
        Formula(.mul(Formula.expressions(operands)))
    }

    /// `{"div": [a, b], "scale": n}`: `a ÷ b` rounded half to even to `scale` decimals (0…20);
    /// empty when `b` is zero.
    public static func div(
        _ dividend: some FormulaConvertible, _ divisor: some FormulaConvertible, scale: Int
    ) -> Formula {
        precondition((0...20).contains(scale), "a division's scale is 0…20")
        return Formula(.div(dividend.formula.expression, divisor.formula.expression, scale: scale))
    }

    /// `{"round": e, "scale": n}`: rounded half to even to `scale` decimals (0…20).
    public static func round(_ operand: some FormulaConvertible, scale: Int) -> Formula {
        precondition((0...20).contains(scale), "a rounding's scale is 0…20")
        return Formula(.round(operand.formula.expression, scale: scale))
    }

    /// `{"min": [e…]}`: the least operand.
    public static func min(_ operands: any FormulaConvertible...) -> Formula {
        Formula(.min(Formula.expressions(operands)))
    }

    /// `{"max": [e…]}`: the greatest operand.
    public static func max(_ operands: any FormulaConvertible...) -> Formula {
        Formula(.max(Formula.expressions(operands)))
    }

    /// `{"concat": [e…]}`: the operands' text joined; empty parts add nothing.
    public static func concat(_ operands: any FormulaConvertible...) -> Formula {
        Formula(.concat(Formula.expressions(operands)))
    }

    /// `{"count": [field ids]}`: how many of the fields are non-empty (`"0"`…).
    public static func count(_ fields: Field...) -> Formula { Formula(.count(fields.map(\.name))) }

    /// `{"if": predicate, "then": e, "else": e}`.
    public static func `if`(
        _ condition: Predicate, then: some FormulaConvertible, else otherwise: some FormulaConvertible
    ) -> Formula {
        Formula(.if(condition, then: then.formula.expression, else: otherwise.formula.expression))
    }

}

extension Formula {
    static func expressions(_ operands: [any FormulaConvertible]) -> [Expression] {
        operands.map(\.formula.expression)
    }
}
