extension LintWalk {
    /// A `validation` value: the canonical array, or the short object form the
    /// decoder normalises (docs/wire-format.md "Screen"). Returns how many rules it holds.
    mutating func lintValidation(_ value: JSONValue, at pointer: JSONPointer) -> Int {
        switch value {
        case .null:
            return 0
        case .array(let rules):
            within(rules.count, limits.maximumRulesPerInput, name: "maximumRulesPerInput", at: pointer, what: "Rules")
            for (index, rule) in rules.prefix(limits.maximumRulesPerInput).enumerated() {
                lintRule(rule, at: pointer.appending(index), shortForm: false)
            }
            return rules.count
        case .object(let object) where object["rule"] != nil:
            report(
                .wrongType, pointer, "\"validation\" must be an array of rules; wrap this single rule in [ ].")
            return 1
        case .object(let object):
            let expansion = Rule.expandShortForm(object, at: pointer)
            for error in expansion.errors { report(.invalidRuleParameter, error.pointer, error.message + ".") }
            within(
                expansion.rules.count, limits.maximumRulesPerInput, name: "maximumRulesPerInput", at: pointer,
                what: "Rules")
            for entry in expansion.rules.prefix(limits.maximumRulesPerInput) {
                lintRule(entry.json, at: entry.pointer, shortForm: true)
            }
            return expansion.rules.count
        default:
            report(.wrongType, pointer, "\"validation\" must be an array of rules, found \(value.kindDescription).")
            return 0
        }
    }

    /// One rule (docs/rules.md). In the short form a rule's
    /// parameter is the value of its key, so problems point at the key.
    mutating func lintRule(_ value: JSONValue, at pointer: JSONPointer, shortForm: Bool) {
        guard let rule = object(value, at: pointer, what: "A rule") else { return }
        guard let kind = string(rule, "rule", at: pointer, why: "; it names the rule kind") else { return }
        guard Rule.knownKinds.contains(where: { $0.isScalarEqual(to: kind) }) else {
            report(
                .unknownRuleKind, shortForm ? pointer : pointer.appending("rule"),
                "\(Self.quoted(kind)) is not a rule kind Parley knows; use one of "
                    + Rule.knownKinds.joined(separator: ", ") + ".")
            return
        }
        _ = optionalString(rule, "message", at: pointer)
        let parameters = RuleParameters(rule: rule, pointer: pointer, shortForm: shortForm, kind: kind)
        switch kind {
        case "requiredIf":
            if let when = parameters.value("when", in: &self) {
                lintPredicate(when, at: parameters.pointer(for: "when"), depth: 1)
            }
        case "minLength", "maxLength":
            if let number = parameters.number("value", in: &self), number.intValue.map({ $0 >= 0 }) != true {
                report(
                    .invalidRuleParameter, parameters.pointer(for: "value"),
                    "\(kind) needs a whole number of 0 or more.")
            }
        case "pattern":
            lintPattern(parameters, in: rule)
        case "oneOf":
            if let values = parameters.value("values", in: &self) {
                lintOneOf(values, at: parameters.pointer(for: "values"))
            }
        case "equalsField":
            if let field = parameters.value("field", in: &self) {
                if case .string(let name) = field {
                    reference(name, at: parameters.pointer(for: "field"), what: "equalsField")
                } else {
                    report(
                        .invalidRuleParameter, parameters.pointer(for: "field"), "\"field\" must be a fieldId string.")
                }
            }
        case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
            _ = parameters.number("value", in: &self)
        case "multipleOf":
            if let number = parameters.number("value", in: &self), number.isNegative || number.isZero {
                report(
                    .invalidRuleParameter, parameters.pointer(for: "value"), "multipleOf needs a number greater than 0."
                )
            }
        case "date":
            for key in ["min", "max"] {
                guard let bound = rule[key], !bound.isNull else { continue }
                guard case .string(let text) = bound, FullDateSyntax.ordinal(text) != nil else {
                    report(
                        .invalidRuleParameter, pointer.appending(key),
                        "\"\(key)\" must be a calendar date written YYYY-MM-DD (RFC 3339 full-date).")
                    continue
                }
            }
        default:
            break
        }
    }

    private mutating func lintPattern(_ parameters: RuleParameters, in rule: JSONObject) {
        guard let value = parameters.value("value", in: &self) else { return }
        let pointer = parameters.pointer(for: "value")
        guard case .string(let pattern) = value else {
            report(.invalidRuleParameter, pointer, "A pattern must be a string, found \(value.kindDescription).")
            return
        }
        guard pattern.unicodeScalars.count <= limits.maximumPatternLength else {
            report(
                .limitExceeded, pointer,
                "The pattern is longer than \(limits.maximumPatternLength) characters (maximumPatternLength).")
            return
        }
        if let problem = PatternSyntax.problem(in: pattern) {
            report(.invalidPattern, pointer, problem)
        } else if let compiled = try? IRegexp(pattern), compiled.instructionCount > limits.maximumPatternInstructions {
            report(
                .limitExceeded, pointer,
                "The pattern compiles to \(compiled.instructionCount) matcher instructions, more than "
                    + "\(limits.maximumPatternInstructions) (maximumPatternInstructions); every answer would cost that "
                    + "much per character. Simplify nested repetitions.")
        }
    }

    private mutating func lintOneOf(_ values: JSONValue, at pointer: JSONPointer) {
        guard case .array(let elements) = values else {
            report(
                .invalidRuleParameter, pointer,
                "\"values\" must be an array of strings, found \(values.kindDescription).")
            return
        }
        within(elements.count, limits.maximumValuesPerList, name: "maximumValuesPerList", at: pointer, what: "Values")
        _ = strings(elements, at: pointer, code: .invalidRuleParameter)
    }
}
