/// An expression (docs/expressions.md): data that yields a string or *empty* from the answers
/// of a session's path and the flow's computed values. No code, no clock, no randomness.
///
/// Decoding is tolerant like everywhere else: an object naming no operator this core knows
/// decodes to ``unknown(_:)``, keeping its raw JSON so it re-encodes unchanged (a newer form,
/// such as a future aggregate over a repeatable group, evaluates to empty here and is refused
/// by lint before it is stored).
public indirect enum Expression: Sendable, Equatable {
    /// `{"field": id}`: an answer of the path or of this screen; a hidden field reads as empty.
    case field(String)
    /// `{"computed": name}`: a computed value of the flow.
    case computed(String)
    /// `{"literal": "…"}`.
    case literal(String)
    /// `{"add": [e…]}`: the exact decimal sum (empty when an operand is empty or not a number).
    case add([Expression])
    /// `{"sub": [a, b]}`: `a − b`.
    case sub(Expression, Expression)
    /// `{"mul": [e…]}`: the exact product.
    case mul([Expression])
    /// `{"div": [a, b], "scale": n}`: `a ÷ b` rounded half to even to `n` decimals; empty when `b` is zero.
    case div(Expression, Expression, scale: Int)
    /// `{"round": e, "scale": n}`: rounded half to even to `n` decimals.
    case round(Expression, scale: Int)
    /// `{"min": [e…]}`: the least operand, in canonical form.
    case min([Expression])
    /// `{"max": [e…]}`: the greatest operand, in canonical form.
    case max([Expression])
    /// `{"concat": [e…]}`: the operands' text joined; empty parts add nothing.
    case concat([Expression])
    /// `{"count": [field ids]}`: how many of the fields are non-empty (`"0"`…).
    case count([String])
    /// `{"if": predicate, "then": e, "else": e}`.
    case `if`(Predicate, then: Expression, else: Expression)
    /// An object naming no known operator: kept raw so it round-trips; evaluates to empty.
    case unknown(JSONValue)

    /// The operator members, one of which names an expression's form.
    public static let operatorNames = [
        "field", "computed", "literal", "add", "sub", "mul", "div", "round", "min", "max", "concat", "count", "if",
    ]

    /// Deepest nesting the decoder follows (the JSON parser's bound); lint's limit is far lower.
    static let maximumDecodingDepth = 128

    /// Decodes an expression: exactly one operator member, or none (an unknown form).
    public init(json: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError) {
        try self.init(json: json, at: pointer, depth: 1)
    }

    init(json: JSONValue, at pointer: JSONPointer, depth: Int) throws(ModelDecodingError) {
        guard depth <= Self.maximumDecodingDepth else {
            throw .invalidValue(pointer, "expressions are nested more than \(Self.maximumDecodingDepth) levels deep")
        }
        let reader = try JSONReader(json, at: pointer, what: "an expression")
        let operators = reader.object.keys(among: Self.operatorNames)
        guard let op = operators.first else {
            self = .unknown(json)
            return
        }
        guard operators.count == 1 else {
            throw .invalidValue(
                pointer,
                "an expression has exactly one operator, found " + operators.map { "\"\($0)\"" }.joined(separator: ", ")
            )
        }
        func operand(_ key: String) throws(ModelDecodingError) -> Expression {
            guard let value = reader.value(key) else {
                throw .missing(pointer.appending(key), "\"\(key)\" is required")
            }
            return try Expression(json: value, at: pointer.appending(key), depth: depth + 1)
        }
        func operands(_ key: String) throws(ModelDecodingError) -> [Expression] {
            var result: [Expression] = []
            for (index, element) in try reader.array(key).enumerated() {
                result.append(
                    try Expression(json: element, at: pointer.appending(key).appending(index), depth: depth + 1))
            }
            return result
        }
        func pair(_ key: String) throws(ModelDecodingError) -> (Expression, Expression) {
            let both = try operands(key)
            guard both.count == 2 else {
                throw .invalidValue(
                    pointer.appending(key), "\"\(key)\" takes exactly two operands, found \(both.count)")
            }
            return (both[0], both[1])
        }
        switch op {
        case "field": self = .field(try reader.string("field"))
        case "computed": self = .computed(try reader.string("computed"))
        case "literal": self = .literal(try reader.string("literal"))
        case "add": self = .add(try operands("add"))
        case "sub":
            let (left, right) = try pair("sub")
            self = .sub(left, right)
        case "mul": self = .mul(try operands("mul"))
        case "div":
            let (left, right) = try pair("div")
            self = .div(left, right, scale: try reader.count("scale"))
        case "round": self = .round(try operand("round"), scale: try reader.count("scale"))
        case "min": self = .min(try operands("min"))
        case "max": self = .max(try operands("max"))
        case "concat": self = .concat(try operands("concat"))
        case "count": self = .count(try reader.strings("count"))
        default:
            guard let condition = reader.value("if") else {
                throw .missing(pointer.appending("if"), "\"if\" is required")
            }
            let predicate = try Predicate(json: condition, at: pointer.appending("if"))
            self = .if(predicate, then: try operand("then"), else: try operand("else"))
        }
    }

    /// The wire JSON.
    public var json: JSONValue {
        func list(_ parts: [Expression]) -> JSONValue { .array(parts.map { $0.json }) }
        switch self {
        case .field(let name): return ["field": .string(name)]
        case .computed(let name): return ["computed": .string(name)]
        case .literal(let text): return ["literal": .string(text)]
        case .add(let parts): return ["add": list(parts)]
        case .sub(let left, let right): return ["sub": list([left, right])]
        case .mul(let parts): return ["mul": list(parts)]
        case .div(let left, let right, let scale):
            return ["div": list([left, right]), "scale": .number(JSONNumber(scale))]
        case .round(let operand, let scale): return ["round": operand.json, "scale": .number(JSONNumber(scale))]
        case .min(let parts): return ["min": list(parts)]
        case .max(let parts): return ["max": list(parts)]
        case .concat(let parts): return ["concat": list(parts)]
        case .count(let fields): return ["count": .array(fields.map(JSONValue.string))]
        case .if(let predicate, let then, let otherwise):
            return ["if": predicate.json, "then": then.json, "else": otherwise.json]
        case .unknown(let raw): return raw
        }
    }

    /// What the expression reads (fields, including `count`'s, and computed values, including
    /// those of `if` predicates), in order of appearance. Iterative, so any depth is safe.
    public var references: [ValueReference] {
        var result: [ValueReference] = []
        var pending: [Expression] = [self]
        while let expression = pending.popLast() {
            switch expression {
            case .field(let name): result.append(.field(name))
            case .computed(let name): result.append(.computed(name))
            case .literal, .unknown: break
            case .add(let parts), .mul(let parts), .min(let parts), .max(let parts), .concat(let parts):
                pending.append(contentsOf: parts.reversed())
            case .sub(let left, let right), .div(let left, let right, _):
                pending.append(right)
                pending.append(left)
            case .round(let operand, _): pending.append(operand)
            case .count(let fields): result.append(contentsOf: fields.map(ValueReference.field))
            case .if(let predicate, let then, let otherwise):
                predicate.collectReferences(into: &result)
                pending.append(otherwise)
                pending.append(then)
            }
        }
        return result
    }

    /// Whether the expression or one of its parts is a form this core does not know.
    public var containsUnknownForm: Bool {
        var pending: [Expression] = [self]
        while let expression = pending.popLast() {
            switch expression {
            case .unknown: return true
            case .add(let parts), .mul(let parts), .min(let parts), .max(let parts), .concat(let parts):
                pending.append(contentsOf: parts)
            case .sub(let left, let right), .div(let left, let right, _): pending += [left, right]
            case .round(let operand, _): pending.append(operand)
            case .if(_, let then, let otherwise): pending += [then, otherwise]
            case .field, .computed, .literal, .count: break
            }
        }
        return false
    }
}
