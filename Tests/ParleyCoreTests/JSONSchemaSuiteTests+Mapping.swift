import Foundation
import ParleyCore

/// How one JSON Schema maps onto Parley rules, and which data can be answers.
///
/// The explicit skip reasons (every one printed by the test):
/// - answers are strings: non-string data under string keywords, and non-number
///   data under numeric keywords, are ignored by JSON Schema but cannot be posed;
/// - Parley passes every non-`required` rule on an empty value (DESIGN.md), where
///   JSON Schema checks `""` (e.g. `format: date` rejects it);
/// - ECMA-262 patterns that are not anchored at both ends search for a
///   substring, while I-Regexp always matches the whole value;
/// - keywords with no rule (`properties`, `patternProperties`, `type: object`…).
struct JSONSchemaMapping {
    enum Result {
        case rules([Rule])
        case unsupported(String)
    }

    enum Answer {
        case run(String)
        case skip(String)
    }

    enum DataKind { case string, number, none }

    static let nonString = "non-string data: JSON Schema ignores it, answers are always strings"
    static let nonNumber = "non-number data: JSON Schema ignores it under numeric keywords, Parley reports `number`"
    static let empty = "empty string: Parley passes every rule but required on an empty value (DESIGN.md)"
    static let typeString = "type: string on non-string data: answers are always strings"

    private(set) var result: Result = .rules([])
    private(set) var dataKind: DataKind = .none
    private var typeIsString = false

    init(schema: JSONObject) {
        var rules: [Rule] = []
        func number(_ value: JSONValue) -> JSONNumber? { value.numberValue }
        for member in schema {
            let value = member.value
            switch member.key {
            case "$schema", "$comment":
                continue
            case "minLength", "maxLength":
                guard let count = number(value)?.intValue else {
                    fail("non-integer length")
                    return
                }
                rules.append(Rule(member.key == "minLength" ? .minLength(count) : .maxLength(count)))
                dataKind = .string
            case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
                guard let bound = number(value) else {
                    fail("non-number bound")
                    return
                }
                let check: Rule.Check
                switch member.key {
                case "minimum": check = .minimum(bound)
                case "maximum": check = .maximum(bound)
                case "exclusiveMinimum": check = .exclusiveMinimum(bound)
                case "exclusiveMaximum": check = .exclusiveMaximum(bound)
                default: check = .multipleOf(bound)
                }
                rules.append(Rule(check))
                dataKind = .number
            case "const":
                // A string never equals a non-string constant: oneOf of the string members.
                rules.append(Rule(.oneOf(value.stringValue.map { [$0] } ?? [])))
                dataKind = .string
            case "enum":
                rules.append(Rule(.oneOf((value.arrayValue ?? []).compactMap(\.stringValue))))
                dataKind = .string
            case "format":
                switch value.stringValue {
                case "email": rules.append(Rule(.email))
                case "date": rules.append(Rule(.date(min: nil, max: nil)))
                default:
                    fail("format \(value.stringValue ?? "?") has no rule")
                    return
                }
                dataKind = .string
            case "pattern":
                guard let pattern = value.stringValue, let translated = Self.translate(pattern) else {
                    fail(
                        "ECMA-262 pattern not anchored at both ends: a substring search, I-Regexp matches the whole value"
                    )
                    return
                }
                rules.append(Rule(.pattern(translated)))
                dataKind = .string
            case "type":
                switch value.stringValue {
                case "integer":
                    rules.append(Rule(.integer))
                    dataKind = .number
                case "number": dataKind = .number
                case "string": typeIsString = true
                default:
                    fail("type \(value.stringValue ?? "?") has no rule")
                    return
                }
            default:
                fail("keyword \(member.key) has no rule")
                return
            }
        }
        result = .rules(rules)
        if typeIsString, dataKind == .none { dataKind = .string }
    }

    private mutating func fail(_ reason: String) {
        result = .unsupported(reason)
    }

    /// The answer string for a datum, or why the case cannot apply.
    func answer(for data: JSONValue) -> Answer {
        if case .unsupported(let reason) = result { return .skip(reason) }
        switch (dataKind, data) {
        case (.number, .number(let number)): return .run(number.description)
        case (.number, _): return .skip(Self.nonNumber)
        case (_, .string(let text)):
            return Answers.isEmpty(text) ? .skip(Self.empty) : .run(text)
        case (_, _) where typeIsString: return .skip(Self.typeString)
        default: return .skip(Self.nonString)
        }
    }

    /// `^…$` ECMA-262 patterns become I-Regexps; `\p{Letter}` becomes `\p{L}`.
    static func translate(_ pattern: String) -> String? {
        var scalars = Array(pattern.unicodeScalars)
        guard scalars.first == "^", scalars.last == "$", scalars.count >= 2 else { return nil }
        scalars.removeFirst()
        scalars.removeLast()
        var text = String(String.UnicodeScalarView(scalars))
        for (long, short) in [("Letter", "L"), ("Number", "N"), ("Punctuation", "P")] {
            text = text.replacingOccurrences(of: "\\p{\(long)}", with: "\\p{\(short)}")
        }
        return text
    }
}
