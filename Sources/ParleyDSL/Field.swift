public import ParleyCore

/// A reference to an input's `fieldId`, used by inputs, rules, requests and
/// predicates: `Field("purpose") == "work"` builds a ``ParleyCore/Predicate``;
/// nothing is evaluated here (docs/wire-format.md "Flow": predicates are data).
///
/// Deliberately not `Equatable`: `==` on a field builds a predicate, never a `Bool`.
public struct Field: Sendable, ExpressibleByStringLiteral {
    /// The field id.
    public let name: String

    /// A field by id.
    public init(_ name: String) { self.name = name }

    /// A field by id, from a literal.
    public init(stringLiteral name: String) { self.name = name }

    /// `{"field": f, "equals": v}`.
    public static func == (field: Field, value: String) -> Predicate { .equals(field: field.name, value: value) }

    /// `{"not": {"field": f, "equals": v}}`.
    public static func != (field: Field, value: String) -> Predicate { .not(field == value) }

    /// `{"field": f, "in": [v…]}`.
    public func `in`(_ values: [String]) -> Predicate { .isIn(field: name, values: values) }

    /// `{"field": f, "present": true}`: the answer is non-empty.
    public var isPresent: Predicate { .present(field: name, true) }

    /// `{"field": f, "present": false}`: the answer is empty.
    public var isEmpty: Predicate { .present(field: name, false) }
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
