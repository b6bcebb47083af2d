public import ParleyCore

/// A reference to an input's `fieldId`, used by inputs, rules, requests, predicates,
/// formulas and templates: `Field("purpose") == "work"` builds a ``ParleyCore/Predicate``
/// (the operators are ``ValueSubject``'s); nothing is evaluated here (docs/wire-format.md "Flow":
/// predicates are data).
///
/// Deliberately not `Equatable`: `==` on a field builds a predicate, never a `Bool`.
public struct Field: Sendable, ExpressibleByStringLiteral {
    /// The field id.
    public let name: String

    /// A field by id.
    public init(_ name: String) { self.name = name }

    /// A field by id, from a literal.
    public init(stringLiteral name: String) { self.name = name }
}

extension Field: ValueSubject {
    /// `{"field": name}`.
    public var subject: ValueReference { .field(name) }
}

extension Predicate {
    /// `{"all": [l, r]}`, flattening nested `all`s.
    public static func && (lhs: Predicate, rhs: Predicate) -> Predicate {
        var parts: [Predicate] = []
        for part in [lhs, rhs] {
            if case .all(let inner) = part { parts += inner } else { parts.append(part) }
        }
        return .all(parts)
    }

    /// `{"any": [l, r]}`, flattening nested `any`s.
    public static func || (lhs: Predicate, rhs: Predicate) -> Predicate {
        var parts: [Predicate] = []
        for part in [lhs, rhs] {
            if case .any(let inner) = part { parts += inner } else { parts.append(part) }
        }
        return .any(parts)
    }

    /// `{"not": p}`.
    public static prefix func ! (operand: Predicate) -> Predicate { .not(operand) }
}
