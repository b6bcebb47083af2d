import ParleyCore

/// Mutates JSON documents the way broken or hostile input does: deleted
/// members, wrong types, huge strings, deep nesting, swapped vocabulary.
struct DocumentMutator {
    var random: SplitMix64

    /// Words that steer mutations into interesting branches of decoder and linter.
    static let vocabulary: [JSONValue] = [
        "vstack", "textField", "picker", "button", "map", "submit", "openUrl", "network", "subscribe", "teleport",
        "required", "pattern", "oneOf", "equalsField", "requiredIf", "date", "luhn", "http://x", "https://x", "../x",
        "//x", "GET", "FETCH", "parley.flow/1", "parley.flow/2", "parley.screen/1", "name", "done", "work", "",
        "a\u{308}", "ä", "😀", "1e999999", "-0.0", "1900-02-29",
    ]

    /// The mutated document after `count` mutations at random places.
    mutating func mutate(_ document: JSONValue, times count: Int) -> JSONValue {
        var result = document
        for _ in 0..<count {
            let path = randomPath(in: result)
            result = Self.updating(result, at: path[...]) { self.mutation(of: $0) }
        }
        return result
    }

    private mutating func mutation(of value: JSONValue) -> JSONValue? {
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1: return nil  // delete the member / element
        case 2: return scalar()
        case 3: return Self.vocabulary[Int.random(in: 0..<Self.vocabulary.count, using: &random)]
        case 4:  // built from bytes: appending "x" ten thousand times was a sixth of the test's time
            let length = Int.random(in: 9_990...10_010, using: &random)
            return .string(String(decoding: [UInt8](repeating: UInt8(ascii: "x"), count: length), as: UTF8.self))
        case 5: return deepNesting(around: value)
        case 6: return .array([value, value])
        case 7:
            guard case .object(var object) = value, let key = object.keys.randomElement(using: &random) else {
                return .object(JSONObject([("value", value)]))
            }
            object[key + "x"] = object[key]
            object[key] = nil
            return .object(object)
        case 8:
            guard case .array(let elements) = value, !elements.isEmpty else { return .array([]) }
            return .array(elements + elements)
        default: return .object(JSONObject())
        }
    }

    private mutating func scalar() -> JSONValue {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number(JSONNumber(Int.random(in: -5...5_000, using: &random)))
        case 3: return .array([])
        default: return .number(JSONNumber(parsing: "0.5")!)
        }
    }

    private mutating func deepNesting(around value: JSONValue) -> JSONValue {
        var result = value
        let depth = Int.random(in: 10...140, using: &random)
        let asNodes = Bool.random(using: &random)
        for level in 0..<depth {
            result =
                asNodes
                ? ["type": "vstack", "id": .string("d\(level)"), "children": [result]]
                : (level.isMultiple(of: 2) ? .array([result]) : ["not": result])
        }
        return result
    }

    /// A random path from the root: at each container, stop with probability
    /// 1/5 or descend into a random member or element. O(depth), not O(size).
    private mutating func randomPath(in document: JSONValue) -> [PathToken] {
        var path: [PathToken] = []
        var current = document
        while Int.random(in: 0..<5, using: &random) != 0 {
            switch current {
            case .object(let object) where !object.isEmpty:
                let member = object.members[Int.random(in: 0..<object.count, using: &random)]
                path.append(.key(member.key))
                current = member.value
            case .array(let elements) where !elements.isEmpty:
                let index = Int.random(in: 0..<elements.count, using: &random)
                path.append(.index(index))
                current = elements[index]
            default:
                return path
            }
        }
        return path
    }

    enum PathToken { case key(String), index(Int) }

    /// The document with the value at `path` transformed (`nil` removes it).
    static func updating(
        _ value: JSONValue, at path: ArraySlice<PathToken>, _ transform: (JSONValue) -> JSONValue?
    ) -> JSONValue {
        guard let token = path.first else { return transform(value) ?? .null }
        let rest = path.dropFirst()
        switch (value, token) {
        case (.object(var object), .key(let key)):
            guard let child = object[key] else { return value }
            object[key] = rest.isEmpty ? transform(child) : updating(child, at: rest, transform)
            return .object(object)
        case (.array(var elements), .index(let index)) where index < elements.count:
            if rest.isEmpty {
                if let replaced = transform(elements[index]) {
                    elements[index] = replaced
                } else {
                    elements.remove(at: index)
                }
            } else {
                elements[index] = updating(elements[index], at: rest, transform)
            }
            return .array(elements)
        default:
            return value
        }
    }
}
