/// A condition over answers, as data (docs/wire-format.md "Flow"): used by `requiredIf`
/// and by flow transitions. No clock and no code.
public indirect enum Predicate: Sendable, Equatable {
    /// `{"field": f, "equals": v}` — scalar-exact equality.
    case equals(field: String, value: String)
    /// `{"field": f, "in": [v…]}`.
    case isIn(field: String, values: [String])
    /// `{"field": f, "present": b}` — whether the answer is non-empty.
    case present(field: String, Bool)
    /// `{"all": […]}` — every predicate holds (true when empty).
    case all([Predicate])
    /// `{"any": […]}` — at least one holds (false when empty).
    case any([Predicate])
    /// `{"not": p}`.
    case not(Predicate)

    /// Decodes a predicate; exactly one operator is allowed.
    public init(json: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError) {
        let reader = try JSONReader(json, at: pointer, what: "a predicate")
        let operators = ["equals", "in", "present", "all", "any", "not"].filter { reader.value($0) != nil }
        guard operators.count == 1, let op = operators.first else {
            throw .invalidValue(
                pointer,
                "a predicate needs exactly one of \"equals\", \"in\", \"present\", \"all\", \"any\", \"not\"")
        }
        switch op {
        case "equals":
            let value = try reader.string("equals")
            self = .equals(field: try reader.string("field"), value: value)
        case "in":
            let values = try reader.strings("in")
            self = .isIn(field: try reader.string("field"), values: values)
        case "present":
            guard let flag = try reader.optionalBool("present") else {
                throw .wrongType(pointer.appending("present"), "\"present\" must be a boolean")
            }
            self = .present(field: try reader.string("field"), flag)
        case "all", "any":
            var parts: [Predicate] = []
            for (index, element) in try reader.array(op).enumerated() {
                parts.append(try Predicate(json: element, at: pointer.appending(op).appending(index)))
            }
            self = op == "all" ? .all(parts) : .any(parts)
        default:
            self = .not(try Predicate(json: reader.value("not")!, at: pointer.appending("not")))
        }
    }

    /// The wire JSON.
    public var json: JSONValue {
        switch self {
        case .equals(let field, let value): return ["field": .string(field), "equals": .string(value)]
        case .isIn(let field, let values): return ["field": .string(field), "in": .array(values.map(JSONValue.string))]
        case .present(let field, let flag): return ["field": .string(field), "present": .bool(flag)]
        case .all(let parts): return ["all": .array(parts.map(\.json))]
        case .any(let parts): return ["any": .array(parts.map(\.json))]
        case .not(let part): return ["not": part.json]
        }
    }

    /// Field ids the predicate reads, in order of appearance.
    public var fields: [String] {
        switch self {
        case .equals(let field, _), .isIn(let field, _), .present(let field, _): return [field]
        case .all(let parts), .any(let parts): return parts.flatMap(\.fields)
        case .not(let part): return part.fields
        }
    }
}
