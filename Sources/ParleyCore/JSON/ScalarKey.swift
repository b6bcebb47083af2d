/// A string compared and hashed by its Unicode scalar values.
///
/// Swift's `String ==` and `Hashable` treat canonically equivalent strings
/// ("ä" and "a\u{308}") as equal. docs/rules.md requires scalar-by-scalar equality
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
        // String's own hash (one call into the optimized standard library) is equal for equal
        // bytes; canonically equivalent keys that differ in scalars hash alike too, which only
        // costs a collision: equality above stays scalar-exact.
        hasher.combine(string)
    }

    /// Orders by UTF-8 bytes, which is the same as ordering by scalar values.
    public static func < (lhs: ScalarKey, rhs: ScalarKey) -> Bool {
        lhs.string.scalarPrecedes(rhs.string)
    }

    public var description: String { string }
}

extension String {
    /// Scalar-by-scalar equality (docs/rules.md: never Swift's `String ==`).
    public func isScalarEqual(to other: String) -> Bool {
        // Different lengths in UTF-8 are different scalars, and UTF-8 is one-to-one with scalar
        // sequences, so equal bytes are equal scalars: compared eight at a time where they lie
        // (native strings). Asking first whether both are ASCII (to use `==`) counted UTF-16
        // units twice a string: more than comparing the bytes of a member name.
        // The same representation is the same string: one storage, or the same small string (a
        // field id or member name of up to fifteen bytes is held inline, and equal ones have
        // equal bits), which is how most equal pairs compared here arrive.
        if Self.sameRepresentation(self, other) { return true }
        let count = utf8.count
        guard count == other.utf8.count else { return false }
        // Fast path on contiguous UTF-8 (native strings); the generic comparison otherwise.
        let fast = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in Self.bytesEqual(left, right) }
        }
        if let fast, let result = fast { return result }
        return utf8.elementsEqual(other.utf8)
    }

    /// Whether two strings' own bits (not their characters) are equal, a word at a time.
    private static func sameRepresentation(_ left: String, _ right: String) -> Bool {
        withUnsafeBytes(of: left) { left in
            withUnsafeBytes(of: right) { right in
                var index = 0
                while index + 8 <= left.count {
                    let word = left.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    if word != right.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
                    index += 8
                }
                while index < left.count {
                    if left[index] != right[index] { return false }
                    index += 1
                }
                return true
            }
        }
    }

    /// Same length and bytes, eight at a time: every cache lookup keyed by a `ScalarKey` ends here,
    /// and the generic `elementsEqual` compared one byte per iterator step.
    private static func bytesEqual(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        let leftBytes = UnsafeRawBufferPointer(left)
        let rightBytes = UnsafeRawBufferPointer(right)
        var index = 0
        while index + 8 <= left.count {
            let lhs = leftBytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if lhs != rightBytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
            index += 8
        }
        while index < left.count {
            if left[index] != right[index] { return false }
            index += 1
        }
        return true
    }

    /// Whether `left` sorts before `right` byte by byte (a prefix first).
    private static func bytesPrecede(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = Swift.min(left.count, right.count)
        var index = 0
        while index < common {
            if left[index] != right[index] { return left[index] < right[index] }
            index += 1
        }
        return left.count < right.count
    }

    /// Whether `self` sorts before `other` by Unicode scalar values.
    public func scalarPrecedes(_ other: String) -> Bool {
        // UTF-8's byte order is the scalar order: the first differing byte decides, where the
        // bytes lie (native strings).
        let fast = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in Self.bytesPrecede(left, right) }
        }
        if let fast, let result = fast { return result }
        return utf8.lexicographicallyPrecedes(other.utf8)
    }
}
