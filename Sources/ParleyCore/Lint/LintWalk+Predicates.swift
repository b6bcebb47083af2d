extension LintWalk {
    /// The operators a predicate may use (docs/wire-format.md "Flow"); exactly one per object.
    static let predicateOperators = Predicate.operatorNames

    /// A predicate, pure data (docs/rules.md: no clock, no code).
    /// `depth` is 1 for the outermost predicate.
    mutating func lintPredicate(_ value: JSONValue, at pointer: JSONPointer, depth: Int) {
        guard depth <= limits.maximumPredicateDepth else {
            report(
                .limitExceeded, pointer,
                "Predicates are nested more than \(limits.maximumPredicateDepth) levels deep (maximumPredicateDepth).")
            return
        }
        guard let predicate = object(value, at: pointer, what: "A predicate") else { return }
        let operators = predicate.keys(among: Self.predicateOperators)
        guard operators.count == 1, let op = operators.first else {
            let found = operators.isEmpty ? "none" : operators.joined(separator: ", ")
            report(
                .invalidPredicate, pointer,
                "A predicate needs exactly one of \(Self.predicateOperators.joined(separator: ", ")); found \(found).")
            return
        }
        switch op {
        case "equals":
            _ = string(predicate, "equals", at: pointer)
            predicateField(predicate, at: pointer)
        case "in":
            if let values = array(predicate, "in", at: pointer, required: true) {
                within(
                    values.count, limits.maximumValuesPerList, name: "maximumValuesPerList",
                    at: pointer.appending("in"), what: "Values")
                _ = strings(values, at: pointer.appending("in"))
            }
            predicateField(predicate, at: pointer)
        case "present", "empty":
            if predicate[op]?.boolValue == nil {
                report(.wrongType, pointer.appending(op), "\"\(op)\" must be true or false.")
            }
            predicateField(predicate, at: pointer)
        case "matches":
            if let pattern = string(predicate, "matches", at: pointer), let problem = PatternSyntax.problem(in: pattern)
            {
                report(.invalidPattern, pointer.appending("matches"), "\"matches\": \(problem).")
            }
            predicateField(predicate, at: pointer)
        case "greaterThan", "atLeast", "lessThan", "atMost":
            if let bound = string(predicate, op, at: pointer), JSONNumber(parsing: bound) == nil {
                report(
                    .invalidValue, pointer.appending(op),
                    "\"\(op)\" must be a number written as a string, e.g. \"10000\" or \"0.5\".")
            }
            predicateField(predicate, at: pointer)
        case "all", "any":
            guard let operands = array(predicate, op, at: pointer, required: true) else { return }
            let operandsPointer = pointer.appending(op)
            within(
                operands.count, limits.maximumValuesPerList, name: "maximumValuesPerList", at: operandsPointer,
                what: "Operands")
            for (index, operand) in operands.prefix(limits.maximumValuesPerList).enumerated() {
                lintPredicate(operand, at: operandsPointer.appending(index), depth: depth + 1)
            }
        default:
            if let operand = predicate["not"] {
                lintPredicate(operand, at: pointer.appending("not"), depth: depth + 1)
            }
        }
    }

    /// What a comparison reads: exactly one of `field` (a field of the flow) and `computed` (a
    /// computed value of the flow).
    private mutating func predicateField(_ predicate: JSONObject, at pointer: JSONPointer) {
        if predicate["field"] != nil && predicate["computed"] != nil {
            report(.invalidPredicate, pointer, "A predicate reads exactly one of \"field\" and \"computed\", not both.")
            return
        }
        if predicate["computed"] != nil {
            if let name = string(predicate, "computed", at: pointer) {
                computedReference(name, at: pointer.appending("computed"))
            }
            return
        }
        if let field = string(predicate, "field", at: pointer, why: "; it names the answer compared") {
            reference(field, at: pointer.appending("field"), what: "A predicate")
        }
    }
}
