public import ParleyCore

/// What a predicate reads: a ``Field`` (an answer) or a ``Computed`` value of the flow
/// (docs/expressions.md: a predicate's subject is `"field"` or `"computed"`).
///
/// The operators build ``ParleyCore/Predicate`` data and never evaluate: `Field("purpose") ==
/// "other"`, `Computed("premium") > "100"`. Comparison bounds are ``DecimalString``s, numbers
/// written as strings like the wire, so a `Double` or `Int` literal does not compile.
public protocol ValueSubject: Sendable {
    /// The subject as the wire names it.
    var subject: ValueReference { get }
}

extension ValueSubject {
    /// `{"field"|"computed": s, "equals": v}`: scalar-exact equality, never numeric.
    public static func == (subject: Self, value: String) -> Predicate { .equals(subject.subject, value: value) }

    /// `{"not": {"field"|"computed": s, "equals": v}}`.
    public static func != (subject: Self, value: String) -> Predicate { .not(subject == value) }

    /// `{"field"|"computed": s, "greaterThan": "n"}`: exact decimal comparison, false when empty.
    public static func > (subject: Self, bound: DecimalString) -> Predicate {
        .compare(subject.subject, .greaterThan, bound: bound.text)
    }

    /// `{"field"|"computed": s, "atLeast": "n"}`.
    public static func >= (subject: Self, bound: DecimalString) -> Predicate {
        .compare(subject.subject, .atLeast, bound: bound.text)
    }

    /// `{"field"|"computed": s, "lessThan": "n"}`.
    public static func < (subject: Self, bound: DecimalString) -> Predicate {
        .compare(subject.subject, .lessThan, bound: bound.text)
    }

    /// `{"field"|"computed": s, "atMost": "n"}`.
    public static func <= (subject: Self, bound: DecimalString) -> Predicate {
        .compare(subject.subject, .atMost, bound: bound.text)
    }

    /// `{"field"|"computed": s, "in": [v…]}`.
    public func `in`(_ values: [String]) -> Predicate { .isIn(subject, values: values) }

    /// `{"field"|"computed": s, "matches": "<I-Regexp>"}`: a whole-value match (RFC 9485).
    public func matches(_ pattern: String) -> Predicate { .matches(subject, pattern: pattern) }

    /// `{"field"|"computed": s, "present": true}`: the value is non-empty.
    public var isPresent: Predicate { .present(subject, true) }

    /// `{"field"|"computed": s, "present": false}`: the value is empty.
    public var isEmpty: Predicate { .present(subject, false) }
}
