/// Every limit of expressions, in one place (STYLE.md, convention 5; docs/expressions.md).
/// Part of the cross-platform contract: another core applies the same numbers, and the
/// conformance vectors under `Tests/Conformance/expressions` pin them.
public enum ExpressionLimits {
    /// Deepest nesting of one expression, the outermost being level 1 (refused at lint): 16.
    public static let maximumDepth = 16
    /// Most nodes (operators, operands, `count` field ids) in one expression (refused at lint): 256.
    public static let maximumNodes = 256
    /// Largest `scale` of `div` and `round`: 20 (0 is the smallest). Any other scale is refused
    /// at lint and evaluates to empty.
    public static let maximumScale = 20
    /// Most significant digits of an arithmetic result (its canonical form without sign, point
    /// and leading zeros: `1000` has 4, `0.001` has 1); a longer result is empty: 40.
    public static let maximumSignificantDigits = 40
    /// Most digits after the point of an arithmetic result; a longer one is empty: 40. Keeps a
    /// result such as `1e-999999999` (one significant digit) from being written out in full:
    /// with this bound a canonical result is never longer than 82 characters.
    public static let maximumFractionDigits = 40
    /// Most significant digits the operands of one `mul` may have together when their product
    /// could lose digits to trailing zeros (a factor ending in 5 meets an even one): 20,000.
    /// Beyond it the product is empty, so the schoolbook product stays a few milliseconds at
    /// worst. Any other product longer than 40 digits is known to be empty without computing it.
    public static let maximumProductDigits = 20_000
    /// Deepest expression or predicate the evaluator follows (a value built in memory may skip
    /// lint); deeper parts evaluate to empty, so no input can exhaust the stack: 128.
    public static let maximumEvaluationDepth = 128
}
