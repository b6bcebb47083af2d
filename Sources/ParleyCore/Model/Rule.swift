/// One validation rule of an input (docs/rules.md).
///
/// Wire form: `{"rule": "<kind>", <parameters>, "message": "…"}`; parameters are
/// `value` (lengths, pattern, numeric bounds), `values` (`oneOf`), `field`
/// (`equalsField`), `when` (`requiredIf`), `min`/`max` (`date`). Kinds this
/// core does not know decode to ``Check/unknown(name:raw:)`` and re-encode unchanged.
public struct Rule: Sendable, Equatable {
    /// What the rule checks.
    public enum Check: Sendable, Equatable {
        /// The value must not be empty (core 1.0).
        case required
        /// The value must not be empty when the predicate holds (core 1.2).
        case requiredIf(Predicate)
        /// At least this many Unicode scalar values (core 1.0).
        case minLength(Int)
        /// At most this many Unicode scalar values (core 1.0).
        case maxLength(Int)
        /// The whole value matches this I-Regexp, RFC 9485 (core 1.0).
        case pattern(String)
        /// The value equals one of these, scalar by scalar (core 1.0).
        case oneOf([String])
        /// The value equals the answer to this field, scalar by scalar (core 1.2).
        case equalsField(String)
        /// A number at least this, compared as exact decimals (core 1.1).
        case minimum(JSONNumber)
        /// A number at most this, compared as exact decimals (core 1.1).
        case maximum(JSONNumber)
        /// A number above this, compared as exact decimals (core 1.1).
        case exclusiveMinimum(JSONNumber)
        /// A number below this, compared as exact decimals (core 1.1).
        case exclusiveMaximum(JSONNumber)
        /// A number that is an exact multiple of this (core 1.1).
        case multipleOf(JSONNumber)
        /// A number without a fractional part (core 1.1).
        case integer
        /// An RFC 5321 mailbox, as JSON Schema's `format: email` (core 1.1).
        case email
        /// An RFC 3339 full-date that exists, optionally within bounds (core 1.2).
        case date(min: String?, max: String?)
        /// A kind this core does not know: its name and the raw rule object.
        case unknown(name: String, raw: JSONObject)
    }

    /// Every rule kind this core knows, in the order the short form expands them.
    public static let knownKinds = [
        "required", "requiredIf", "minLength", "maxLength", "pattern", "oneOf", "equalsField", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "integer", "email", "date",
    ]

    /// What the rule checks.
    public var check: Check
    /// The message shown when the rule fails.
    public var message: String?

    /// Creates a rule.
    public init(_ check: Check, message: String? = nil) {
        self.check = check
        self.message = message
    }

    /// The rule kind's wire name.
    public var name: String {
        switch check {
        case .required: return "required"
        case .requiredIf: return "requiredIf"
        case .minLength: return "minLength"
        case .maxLength: return "maxLength"
        case .pattern: return "pattern"
        case .oneOf: return "oneOf"
        case .equalsField: return "equalsField"
        case .minimum: return "minimum"
        case .maximum: return "maximum"
        case .exclusiveMinimum: return "exclusiveMinimum"
        case .exclusiveMaximum: return "exclusiveMaximum"
        case .multipleOf: return "multipleOf"
        case .integer: return "integer"
        case .email: return "email"
        case .date: return "date"
        case .unknown(let name, _): return name
        }
    }

    /// Whether this core knows the rule kind.
    public var isKnown: Bool {
        if case .unknown = check { return false }
        return true
    }

    /// Decodes one rule object.
    public init(json: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError) {
        let reader = try JSONReader(json, at: pointer, what: "a rule")
        let kind = try reader.string("rule")
        // A kind newer than this core may shape its message differently; only
        // known kinds insist on a string, so decoding never fails on newer rules.
        message =
            Self.knownKinds.contains(kind) ? try reader.optionalString("message") : reader.value("message")?.stringValue
        switch kind {
        case "required": check = .required
        case "requiredIf":
            guard let when = reader.value("when") else {
                throw .missing(pointer.appending("when"), "\"when\" is required for requiredIf")
            }
            check = .requiredIf(try Predicate(json: when, at: pointer.appending("when")))
        case "minLength": check = .minLength(try reader.count("value"))
        case "maxLength": check = .maxLength(try reader.count("value"))
        case "pattern": check = .pattern(try reader.string("value"))
        case "oneOf": check = .oneOf(try reader.strings("values"))
        case "equalsField": check = .equalsField(try reader.string("field"))
        case "minimum": check = .minimum(try reader.number("value"))
        case "maximum": check = .maximum(try reader.number("value"))
        case "exclusiveMinimum": check = .exclusiveMinimum(try reader.number("value"))
        case "exclusiveMaximum": check = .exclusiveMaximum(try reader.number("value"))
        case "multipleOf":
            let divisor = try reader.number("value")
            guard !divisor.isNegative, !divisor.isZero else {
                throw .invalidValue(pointer.appending("value"), "multipleOf needs a number greater than 0")
            }
            check = .multipleOf(divisor)
        case "integer": check = .integer
        case "email": check = .email
        case "date": check = .date(min: try reader.optionalString("min"), max: try reader.optionalString("max"))
        default: check = .unknown(name: kind, raw: reader.object)
        }
    }

    /// The canonical wire JSON.
    public var json: JSONValue {
        var object = JSONObject()
        switch check {
        case .required, .integer, .email: break
        case .requiredIf(let predicate): object["when"] = predicate.json
        case .minLength(let count), .maxLength(let count): object["value"] = .number(JSONNumber(count))
        case .pattern(let pattern): object["value"] = .string(pattern)
        case .oneOf(let values): object["values"] = .array(values.map(JSONValue.string))
        case .equalsField(let field): object["field"] = .string(field)
        case .minimum(let number), .maximum(let number), .exclusiveMinimum(let number),
            .exclusiveMaximum(let number), .multipleOf(let number):
            object["value"] = .number(number)
        case .date(let min, let max):
            if let min { object["min"] = .string(min) }
            if let max { object["max"] = .string(max) }
        case .unknown(_, let raw):
            return .object(raw)
        }
        object["rule"] = .string(name)
        if let message { object["message"] = .string(message) }
        return .object(object)
    }

    /// Decodes a `validation` value: the canonical array, or the short object
    /// form `{"required": true, "minLength": 3, "message": "…"}` (docs/wire-format.md
    /// "Screen"), which expands in ``knownKinds`` order, then unknown keys in
    /// scalar order, each rule taking the shared `message`.
    public static func decodeList(_ value: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError) -> [Rule] {
        switch value {
        case .null:
            return []
        case .array(let elements):
            var rules: [Rule] = []
            for (index, element) in elements.enumerated() {
                rules.append(try Rule(json: element, at: pointer.appending(index)))
            }
            return rules
        case .object(let object):
            let expansion = expandShortForm(object, at: pointer)
            if let error = expansion.errors.first { throw error }
            var rules: [Rule] = []
            for entry in expansion.rules { rules.append(try Rule(json: entry.json, at: entry.pointer)) }
            return rules
        default:
            throw .wrongType(pointer, "\"validation\" must be an array of rules, found \(value.kindDescription)")
        }
    }
}
