/// An exact-decimal comparison of a predicate (docs/expressions.md): the subject's value
/// against a number written as a string. False when the value is empty or not a number.
public enum NumericComparison: String, Sendable, Hashable, CaseIterable {
    /// `{"field"|"computed", "greaterThan": n}`: value > n.
    case greaterThan
    /// `atLeast`: value ≥ n.
    case atLeast
    /// `lessThan`: value < n.
    case lessThan
    /// `atMost`: value ≤ n.
    case atMost

    /// Whether a three-way comparison result (value against bound) satisfies this comparison.
    public func holds(_ order: Int) -> Bool {
        switch self {
        case .greaterThan: return order > 0
        case .atLeast: return order >= 0
        case .lessThan: return order < 0
        case .atMost: return order <= 0
        }
    }
}
