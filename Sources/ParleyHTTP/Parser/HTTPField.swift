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
        var lhs = utf8.makeIterator()
        var rhs = other.utf8.makeIterator()
        while true {
            switch (lhs.next(), rhs.next()) {
            case (nil, nil): return true
            case (let a?, let b?):
                if a == b { continue }
                if ByteClass.lowercased(a) != ByteClass.lowercased(b) { return false }
            default: return false
            }
        }
    }
}
