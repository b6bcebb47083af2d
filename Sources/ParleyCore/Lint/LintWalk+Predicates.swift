extension LintWalk {
    /// The operators a predicate may use (docs/wire-format.md "Flow"); exactly one per object.
    static let predicateOperators = ["equals", "in", "present", "all", "any", "not"]

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
        let operators = Self.predicateOperators.filter { predicate[$0] != nil }
        guard operators.count == 1, let op = operators.first else {
            let found = operators.isEmpty ? "none" : operators.joined(separator: ", ")
            report(
                .invalidPredicate, pointer,
                "A predicate needs exactly one of equals, in, present, all, any, not; found \(found).")
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
        case "present":
            if predicate["present"]?.boolValue == nil {
                report(.wrongType, pointer.appending("present"), "\"present\" must be true or false.")
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

    /// The `field` a comparison reads: a string naming a field of the flow.
    private mutating func predicateField(_ predicate: JSONObject, at pointer: JSONPointer) {
        if let field = string(predicate, "field", at: pointer, why: "; it names the answer compared") {
            reference(field, at: pointer.appending("field"), what: "A predicate")
        }
    }
}
