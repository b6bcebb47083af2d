/// A condition over answers and computed values, as data (docs/wire-format.md "Flow",
/// docs/expressions.md): used by `requiredIf`, flow transitions, `visibleWhen` and `if`
/// expressions. No clock and no code.
public indirect enum Predicate: Sendable, Equatable {
    /// `{"field"|"computed": s, "equals": v}` — scalar-exact equality, never numeric.
    case equals(ValueReference, value: String)
    /// `{"field"|"computed": s, "in": [v…]}` — scalar-exact membership.
    case isIn(ValueReference, values: [String])
    /// `{"field"|"computed": s, "present": b}` — whether the value is non-empty.
    case present(ValueReference, Bool)
    /// `{"field"|"computed": s, "greaterThan"|"atLeast"|"lessThan"|"atMost": "<number>"}` — exact
    /// decimal comparison; false when the value is empty or not a number (or the bound is not one).
    /// The bound keeps its text as written so a document round-trips unchanged.
    case compare(ValueReference, NumericComparison, bound: String)
    /// `{"field"|"computed": s, "matches": "<I-Regexp>"}` — a whole-value match (RFC 9485);
    /// false on an empty value or an invalid pattern.
    case matches(ValueReference, pattern: String)
    /// `{"field"|"computed": s, "empty": b}` — whether the value is empty (docs/rules.md's *empty*).
    case empty(ValueReference, Bool)
    /// `{"all": […]}` — every predicate holds (true when empty).
    case all([Predicate])
    /// `{"any": […]}` — at least one holds (false when empty).
    case any([Predicate])
    /// `{"not": p}`.
    case not(Predicate)

    /// `{"field": f, "equals": v}`.
    public static func equals(field: String, value: String) -> Predicate { .equals(.field(field), value: value) }
    /// `{"field": f, "in": [v…]}`.
    public static func isIn(field: String, values: [String]) -> Predicate { .isIn(.field(field), values: values) }
    /// `{"field": f, "present": b}`.
    public static func present(field: String, _ flag: Bool) -> Predicate { .present(.field(field), flag) }

    /// Every operator a predicate may use; exactly one per object.
    public static let operatorNames =
        ["equals", "in", "present", "all", "any", "not", "matches", "empty"]
        + NumericComparison.allCases.map { $0.rawValue }

    /// Deepest nesting the decoder follows (the JSON parser's own bound), so a hostile value
    /// built in memory cannot exhaust the stack.
    static let maximumDecodingDepth = 128

    /// Decodes a predicate; exactly one operator is allowed.
    public init(json: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError) {
        try self.init(json: json, at: pointer, depth: 1)
    }

    init(json: JSONValue, at pointer: JSONPointer, depth: Int) throws(ModelDecodingError) {
        guard depth <= Self.maximumDecodingDepth else {
            throw .invalidValue(pointer, "predicates are nested more than \(Self.maximumDecodingDepth) levels deep")
        }
        let reader = try JSONReader(json, at: pointer, what: "a predicate")
        let operators = reader.object.keys(among: Self.operatorNames)
        guard operators.count == 1, let op = operators.first else {
            throw .invalidValue(
                pointer,
                "a predicate needs exactly one of " + Self.operatorNames.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        switch op {
        case "all", "any":
            var parts: [Predicate] = []
            for (index, element) in try reader.array(op).enumerated() {
                parts.append(try Predicate(json: element, at: pointer.appending(op).appending(index), depth: depth + 1))
            }
            self = op == "all" ? .all(parts) : .any(parts)
            return
        case "not":
            self = .not(try Predicate(json: reader.value("not")!, at: pointer.appending("not"), depth: depth + 1))
            return
        default:
            break
        }
        let subject = try ValueReference(subjectOf: reader, what: "a predicate")
        switch op {
        case "equals":
            self = .equals(subject, value: try reader.string("equals"))
        case "in":
            self = .isIn(subject, values: try reader.strings("in"))
        case "present", "empty":
            guard let flag = try reader.optionalBool(op) else {
                throw .wrongType(pointer.appending(op), "\"\(op)\" must be a boolean")
            }
            self = op == "present" ? .present(subject, flag) : .empty(subject, flag)
        case "matches":
            self = .matches(subject, pattern: try reader.string("matches"))
        default:
            let comparison = NumericComparison(rawValue: op)!
            if case .number(let number)? = reader.value(op) {
                self = .compare(subject, comparison, bound: number.description)
            } else {
                self = .compare(subject, comparison, bound: try reader.string(op))
            }
        }
    }

    /// The wire JSON.
    public var json: JSONValue {
        var object = JSONObject()
        switch self {
        case .equals(let subject, let value):
            subject.write(into: &object)
            object["equals"] = .string(value)
        case .isIn(let subject, let values):
            subject.write(into: &object)
            object["in"] = .array(values.map(JSONValue.string))
        case .present(let subject, let flag):
            subject.write(into: &object)
            object["present"] = .bool(flag)
        case .compare(let subject, let comparison, let bound):
            subject.write(into: &object)
            object[comparison.rawValue] = .string(bound)
        case .matches(let subject, let pattern):
            subject.write(into: &object)
            object["matches"] = .string(pattern)
        case .empty(let subject, let flag):
            subject.write(into: &object)
            object["empty"] = .bool(flag)
        case .all(let parts): object["all"] = .array(parts.map { $0.json })
        case .any(let parts): object["any"] = .array(parts.map { $0.json })
        case .not(let part): object["not"] = part.json
        }
        return .object(object)
    }

    /// What the predicate reads, in order of appearance (fields and computed values).
    public var references: [ValueReference] {
        var result: [ValueReference] = []
        collectReferences(into: &result)
        return result
    }

    func collectReferences(into result: inout [ValueReference]) {
        switch self {
        case .equals(let subject, _), .isIn(let subject, _), .present(let subject, _), .compare(let subject, _, _),
            .matches(let subject, _), .empty(let subject, _):
            result.append(subject)
        case .all(let parts), .any(let parts):
            for part in parts { part.collectReferences(into: &result) }
        case .not(let part):
            part.collectReferences(into: &result)
        }
    }

    /// Field ids the predicate reads directly, in order of appearance (computed values it reads
    /// are not expanded: see ``references``).
    public var fields: [String] { references.compactMap { $0.fieldId } }

    /// Whether the predicate uses anything core 2.1 introduced (a `computed` subject or a form
    /// other than `equals`, `in`, `present`, `all`, `any`, `not`).
    public var usesExpressionForms: Bool {
        switch self {
        case .equals(let subject, _), .isIn(let subject, _), .present(let subject, _):
            return subject.computedName != nil
        case .compare, .matches, .empty: return true
        case .all(let parts), .any(let parts): return parts.contains { $0.usesExpressionForms }
        case .not(let part): return part.usesExpressionForms
        }
    }
}
