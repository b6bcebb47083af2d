/// One header field line as received: the name keeps its spelling, the value has its
/// surrounding whitespace removed (RFC 9110 §5.5).
public struct HTTPField: Sendable, Hashable {
    /// The field name, compared case-insensitively (RFC 9110 §5.1).
    public var name: String
    /// The field value without leading or trailing whitespace.
    public var value: String

    /// Creates a field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension String {
    /// ASCII case-insensitive equality, the comparison RFC 9110 §5.1 asks for field names and tokens.
    /// Lengths first (O(1) for native strings): a header lookup compares its name with every field
    /// of the request, and names of another length, nearly all of them, are rejected unread.
    func isASCIICaseInsensitiveEqual(to other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // A lookup usually spells the name as it was sent: `==` settles that without a byte loop
        // (two words compared for a short name). Field names are tokens, ASCII, where `==` is
        // byte equality; only names outside the grammar could be equal here by Unicode
        // equivalence alone.
        if self == other { return true }
        // Both sides as contiguous bytes (native and small strings always are): a plain loop,
        // not two UTF-8 iterators decoding a byte at a time.
        let compared = utf8.withContiguousStorageIfAvailable { lhs in
            other.utf8.withContiguousStorageIfAvailable { rhs in
                for index in 0..<lhs.count where lhs[index] != rhs[index] {
                    if ByteClass.lowercased(lhs[index]) != ByteClass.lowercased(rhs[index]) { return false }
                }
                return true
            }
        }
        if case .some(.some(let equal)) = compared { return equal }
        return utf8.elementsEqual(other.utf8) { ByteClass.lowercased($0) == ByteClass.lowercased($1) }
    }
}
