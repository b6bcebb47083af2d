import ParleyCore

/// Seeded random (screen, answers) cases for `parley core-cases`: screens of one to six inputs
/// drawn from the whole rule vocabulary (unknown kinds, fallbacks and cross-field rules
/// included), and answers near the rules' boundaries, so a WebAssembly build and the native one
/// are compared where interpreters drift: Unicode lengths, number grammar, exact decimals, dates,
/// email, I-Regexp, predicates, unexpected fields and the path's answers.
struct RandomScreenCases {
    private var random: SampleRandom
    private var fieldIds: [String] = []

    init(seed: UInt64) {
        random = SampleRandom(seed: seed)
    }

    /// One case: screen, answers, path answers (or nil) and options (or nil), all JSON text.
    mutating func next() -> (String, String, String?, String?) {
        let count = 1 + pick(6)
        fieldIds = (0..<count).map {
            ["name", "age", "email", "dob", "code", "é", "e\u{301}", "n"][($0 + pick(8)) % 8] + "\($0)"
        }
        var children: [JSONValue] = [["type": "text", "id": "intro", "properties": ["text": "Intro"]]]
        for (index, field) in fieldIds.enumerated() {
            var node: JSONValue = [
                "type": .string(["textField", "picker", "quickReplies", "datePicker", "toggle"][pick(5)]),
                "id": .string("node\(index)"),
                "properties": [
                    "fieldId": .string(field), "label": "Label", "options": ["a", "b", "ä"],
                    "validation": .array((0..<pick(4)).map { _ in rule() }),
                ],
            ]
            if pick(5) == 0, case .object(var object) = node {
                object["fallback"] = [
                    "type": "textField", "id": .string("fallback\(index)"),
                    "properties": ["fieldId": .string(field), "validation": .array([rule()])],
                ]
                node = .object(object)
            }
            children.append(node)
        }
        let screen: JSONValue = [
            "schema": "parley.screen/1", "id": "random",
            "root": ["type": "vstack", "id": "root", "children": .array(children)],
        ]
        var answers = JSONObject()
        for field in fieldIds where pick(6) != 0 { answers[field] = pick(10) == 0 ? .null : .string(value()) }
        if pick(8) == 0 { answers["stray"] = .string(value()) }
        let path: String? = pick(3) == 0 ? CanonicalJSON.string(["earlier": .string(value())]) : nil
        let options: String? = pick(3) == 0 ? #"{"mode":"client"}"# : nil
        return (CanonicalJSON.string(screen), CanonicalJSON.string(.object(answers)), path, options)
    }

    /// A core version to gate for, floor to newest plus pre-releases and future ones.
    mutating func core() -> String {
        ["1.0.0", "1.1.0", "1.2.0-beta.1", "1.2.0", "2.0.0", "2.1", "3.0.0", ""][pick(8)]
    }

    private mutating func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }

    private mutating func oneOf(_ values: [String]) -> String { values[pick(values.count)] }

    private mutating func number() -> JSONValue {
        .number(JSONNumber(parsing: oneOf(["0", "1", "2.5", "-3", "0.0001", "10", "1e3", "7", "0.1", "100"]))!)
    }

    private mutating func rule() -> JSONValue {
        var rule = JSONObject()
        let kind = oneOf([
            "required", "requiredIf", "minLength", "maxLength", "pattern", "oneOf", "equalsField", "minimum",
            "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "integer", "email", "date", "futureRule",
        ])
        rule["rule"] = .string(kind)
        switch kind {
        case "minLength", "maxLength": rule["value"] = .number(JSONNumber(pick(6)))
        case "pattern": rule["value"] = .string(oneOf(["[A-Z]{2}", "a*b", "\\p{L}+", "[0-9]{1,3}(\\.[0-9]+)?", ".*"]))
        case "oneOf": rule["values"] = ["a", "b", "ä"]
        case "equalsField", "requiredIf":
            let other = pick(3) == 0 ? "earlier" : fieldIds[pick(fieldIds.count)]
            if kind == "equalsField" {
                rule["field"] = .string(other)
            } else {
                rule["when"] =
                    pick(2) == 0
                    ? ["field": .string(other), "equals": "a"] : ["field": .string(other), "present": true]
            }
        case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum": rule["value"] = number()
        case "multipleOf": rule["value"] = .number(JSONNumber(parsing: oneOf(["0.5", "3", "0.0001", "2"]))!)
        case "date":
            if pick(2) == 0 { rule["min"] = "2000-01-01" }
            if pick(2) == 0 { rule["max"] = "2024-02-29" }
        default: break
        }
        if pick(3) == 0 { rule["message"] = .string("Custom \(kind).") }
        return .object(rule)
    }

    private mutating func value() -> String {
        switch pick(8) {
        case 0: return oneOf(["", " ", "\t\n", "\u{A0}", "a", "b", "ä", "a\u{308}", "AB", "Ab", "😀😀"])
        case 1: return oneOf(["0", "-0", "1.5", "1e3", "+1", "01", "0.0001", "2.50", "1e999999999", "7", "-3", "1."])
        case 2: return oneOf(["a@example.com", "\"q x\"@example.com", "a@[127.0.0.1]", "a@@b", "a@b", "@b.c"])
        case 3: return oneOf(["2024-02-29", "2023-02-29", "1999-12-31", "2000-01-01", "2024-13-01", "24-01-01"])
        case 4: return String(repeating: oneOf(["a", "b", "é", "e\u{301}", "中", "9"]), count: pick(8))
        case 5: return oneOf(["aaab", "b", "123", "12.75", "ÄÖ", "x\ny"])
        default:
            let alphabet = Array("abAB09 .-éß中😀\u{301}@".unicodeScalars)
            var text = String.UnicodeScalarView()
            for _ in 0..<pick(7) { text.append(alphabet[pick(alphabet.count)]) }
            return String(text)
        }
    }
}
