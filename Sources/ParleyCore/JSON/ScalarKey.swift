/// A string compared and hashed by its Unicode scalar values.
///
/// Swift's `String ==` and `Hashable` treat canonically equivalent strings
/// ("ä" and "a\u{308}") as equal. DESIGN.md requires scalar-by-scalar equality
/// for rule semantics, and JSON object keys must not collide that way either.
public struct ScalarKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The string, exactly as given.
    public let string: String

    /// Wraps a string for scalar-exact comparison.
    public init(_ string: String) { self.string = string }

    public static func == (lhs: ScalarKey, rhs: ScalarKey) -> Bool {
        lhs.string.isScalarEqual(to: rhs.string)
    }

    public func hash(into hasher: inout Hasher) {
        for byte in string.utf8 { hasher.combine(byte) }
        hasher.combine(0xFF as UInt8)
    }

    /// Orders by UTF-8 bytes, which is the same as ordering by scalar values.
    public static func < (lhs: ScalarKey, rhs: ScalarKey) -> Bool {
        lhs.string.utf8.lexicographicallyPrecedes(rhs.string.utf8)
    }

    public var description: String { string }
}

extension String {
    /// Scalar-by-scalar equality (DESIGN.md: never Swift's `String ==`).
    public func isScalarEqual(to other: String) -> Bool {
        utf8.elementsEqual(other.utf8)
    }

    /// Whether `self` sorts before `other` by Unicode scalar values.
    public func scalarPrecedes(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }
}
