/// An RFC 6901 JSON Pointer, built up while walking a document so that every
/// problem can say exactly where it is.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// Unescaped reference tokens, root first.
    public private(set) var tokens: [String]

    /// The pointer to the whole document (`""`).
    public static let root = JSONPointer(tokens: [])

    /// A pointer from unescaped tokens.
    public init(tokens: [String]) { self.tokens = tokens }

    /// This pointer extended by an object member name.
    public func appending(_ key: String) -> JSONPointer {
        // One copy of the tokens with room for the new one (`tokens + [key]` built two arrays):
        // linting walks every node of a document through here.
        var extended: [String] = []
        extended.reserveCapacity(tokens.count + 1)
        extended.append(contentsOf: tokens)
        extended.append(key)
        return JSONPointer(tokens: extended)
    }

    /// This pointer extended by an array index.
    public func appending(_ index: Int) -> JSONPointer { appending(String(index)) }

    /// `/a/b~1c/0` form: `~` escaped as `~0`, `/` as `~1` (RFC 6901 §3).
    public var description: String {
        tokens.map { "/" + $0.replacingAll("~", with: "~0").replacingAll("/", with: "~1") }.joined()
    }

    /// Resolves the pointer in a value, or `nil` when it names nothing.
    public func resolve(in value: JSONValue) -> JSONValue? {
        var current = value
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let elements):
                guard let position = Int(token), position >= 0, position < elements.count,
                    token == String(position)
                else { return nil }
                current = elements[position]
            default:
                return nil
            }
        }
        return current
    }
}

extension String {
    /// Replaces every occurrence of a character, scalar-exactly (no Foundation needed).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in unicodeScalars {
            if Character(character) == target { result += replacement } else { result.unicodeScalars.append(character) }
        }
        return result
    }
}
