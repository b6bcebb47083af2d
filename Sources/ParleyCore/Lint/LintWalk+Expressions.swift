extension LintWalk {
    /// A flow's `computed` object (docs/expressions.md); returns the declared names.
    mutating func lintComputed(_ flow: JSONObject, at pointer: JSONPointer) -> [ScalarKey: JSONPointer] {
        guard let value = flow["computed"], !value.isNull else { return [:] }
        let computedPointer = pointer.appending("computed")
        guard let object = object(value, at: computedPointer, what: "\"computed\"") else { return [:] }
        within(
            object.count, limits.maximumValuesPerList, name: "maximumValuesPerList", at: computedPointer,
            what: "Computed values")
        var names: [ScalarKey: JSONPointer] = [:]
        for member in object.members.prefix(limits.maximumValuesPerList) {
            let memberPointer = computedPointer.appending(member.key)
            checkIdentifier(member.key, key: "computed name", at: memberPointer)
            names[ScalarKey(member.key)] = memberPointer
            reading(.computed) { walk in walk.lintExpressionRoot(member.value, at: memberPointer) }
        }
        return names
    }

    /// One whole expression: its form, its depth and its size (``ExpressionLimits``).
    mutating func lintExpressionRoot(_ value: JSONValue, at pointer: JSONPointer) {
        var nodes = 0
        lintExpression(value, at: pointer, depth: 1, nodes: &nodes)
        if nodes > ExpressionLimits.maximumNodes {
            report(
                .limitExceeded, pointer,
                "The expression has more than \(ExpressionLimits.maximumNodes) parts (ExpressionLimits.maximumNodes).")
        }
    }

    /// An expression; recursion stops at ``ExpressionLimits/maximumDepth``, so even a value
    /// nested 10,000 deep costs 17 frames.
    private mutating func lintExpression(_ value: JSONValue, at pointer: JSONPointer, depth: Int, nodes: inout Int) {
        guard depth <= ExpressionLimits.maximumDepth else {
            report(
                .limitExceeded, pointer,
                "Expressions are nested more than \(ExpressionLimits.maximumDepth) levels deep (ExpressionLimits.maximumDepth)."
            )
            return
        }
        nodes += 1
        guard nodes <= ExpressionLimits.maximumNodes + 1 else { return }
        guard let expression = object(value, at: pointer, what: "An expression") else { return }
        let operators = expression.keys(among: Expression.operatorNames)
        guard operators.count == 1, let op = operators.first else {
            let found = operators.isEmpty ? "none" : operators.joined(separator: ", ")
            report(
                .invalidExpression, pointer,
                "An expression needs exactly one of \(Expression.operatorNames.joined(separator: ", ")); found \(found)."
            )
            return
        }
        func operand(_ key: String) {
            guard let part = expression[key] else {
                report(.missingMember, pointer.appending(key), "\"\(key)\" is required.")
                return
            }
            lintExpression(part, at: pointer.appending(key), depth: depth + 1, nodes: &nodes)
        }
        func operands(_ key: String, exactly count: Int? = nil) {
            guard let parts = array(expression, key, at: pointer, required: true, code: .invalidExpression) else {
                return
            }
            if let count, parts.count != count {
                report(.invalidExpression, pointer.appending(key), "\"\(key)\" takes exactly \(count) operands.")
            } else if parts.isEmpty && key != "concat" {
                report(.invalidExpression, pointer.appending(key), "\"\(key)\" needs at least one operand.")
            }
            for (index, part) in parts.enumerated() {
                lintExpression(part, at: pointer.appending(key).appending(index), depth: depth + 1, nodes: &nodes)
            }
        }
        switch op {
        case "field":
            if let name = string(expression, "field", at: pointer, code: .invalidExpression) {
                reference(name, at: pointer.appending("field"), what: "An expression")
            }
        case "computed":
            if let name = string(expression, "computed", at: pointer, code: .invalidExpression) {
                computedReference(name, at: pointer.appending("computed"))
            }
        case "literal":
            _ = string(expression, "literal", at: pointer, code: .invalidExpression)
        case "add", "mul", "min", "max", "concat":
            operands(op)
        case "sub":
            operands(op, exactly: 2)
        case "div":
            operands(op, exactly: 2)
            lintScale(expression, at: pointer)
        case "round":
            operand("round")
            lintScale(expression, at: pointer)
        case "count":
            guard let fields = array(expression, "count", at: pointer, required: true, code: .invalidExpression) else {
                return
            }
            nodes += fields.count
            for (index, field) in strings(fields, at: pointer.appending("count"), code: .invalidExpression).enumerated()
            {
                reference(field, at: pointer.appending("count").appending(index), what: "count")
            }
        default:
            if let condition = expression["if"] {
                lintPredicate(condition, at: pointer.appending("if"), depth: 1)
            }
            operand("then")
            operand("else")
        }
    }

    /// `scale`: a whole number from 0 to ``ExpressionLimits/maximumScale``.
    private mutating func lintScale(_ expression: JSONObject, at pointer: JSONPointer) {
        guard let scale = expression["scale"] else {
            report(.missingMember, pointer.appending("scale"), "\"scale\" is required (0 to 20 decimals).")
            return
        }
        guard let value = scale.numberValue?.intValue, (0...ExpressionLimits.maximumScale).contains(value) else {
            report(
                .limitExceeded, pointer.appending("scale"),
                "\"scale\" must be a whole number from 0 to \(ExpressionLimits.maximumScale) (ExpressionLimits.maximumScale)."
            )
            return
        }
    }

    /// A template standing in a text property: parts (strings or expressions) and an optional
    /// string `fallback`.
    mutating func lintTemplate(_ template: JSONObject, at pointer: JSONPointer) {
        guard let parts = array(template, "template", at: pointer, required: true) else { return }
        within(
            parts.count, limits.maximumValuesPerList, name: "maximumValuesPerList", at: pointer.appending("template"),
            what: "Template parts")
        _ = optionalString(template, "fallback", at: pointer)
        reading(.template) { walk in
            for (index, part) in parts.prefix(walk.limits.maximumValuesPerList).enumerated() {
                let partPointer = pointer.appending("template").appending(index)
                switch part {
                case .string: continue
                case .object: walk.lintExpressionRoot(part, at: partPointer)
                default:
                    walk.report(
                        .wrongType, partPointer,
                        "A template part must be a string or an expression, found \(part.kindDescription).")
                }
            }
        }
    }

    /// The checks that need the whole flow: unknown and cyclic computed values, templates over
    /// sensitive fields, rules over fields `visibleWhen` can hide.
    mutating func checkExpressionReferences(computed names: [ScalarKey: JSONPointer], flow: JSONObject, scope: String) {
        for (name, pointer) in computedReferences where names[ScalarKey(name)] == nil {
            report(
                .unknownComputed, pointer,
                "\(Self.quoted(name)) is not a computed value of this \(scope); declare it under \"computed\".")
        }
        var values: [ComputedValue] = []
        if case .object(let object)? = flow["computed"] {
            for member in object {
                if let expression = try? Expression(json: member.value, at: .root) {
                    values.append(ComputedValue(name: member.key, expression: expression))
                }
            }
        }
        let graph = ComputedGraph(values)
        for cycle in graph.cycles {
            let members = cycle.map { values[$0].name }
            report(
                .computedCycle, names[ScalarKey(members[0])] ?? .root,
                "Computed values read each other in a cycle: \(members.map { Self.quoted($0) }.joined(separator: ", "))."
            )
        }
        for (reference, pointer) in templateReads {
            let fields: [String]
            switch reference {
            case .field(let name): fields = [name]
            case .computed(let name): fields = graph.fieldsRead(byComputed: name)
            }
            if let sensitive = fields.first(where: { sensitiveFields.contains(ScalarKey($0)) }) {
                report(
                    .templateReadsSensitiveField, pointer,
                    "A template may not show the sensitive field \(Self.quoted(sensitive)).")
            }
        }
        for (name, pointer) in ruleReads where hideableFields.contains(ScalarKey(name)) {
            report(
                .fieldMayBeHidden, pointer,
                "The field \(Self.quoted(name)) can be hidden by \"visibleWhen\"; this rule then reads it as empty.",
                severity: .warning)
        }
    }
}

extension ComputedGraph {
    /// Every field a computed value reads, directly or through other computed values (iterative).
    func fieldsRead(byComputed name: String) -> [String] {
        guard let start = index(of: name) else { return [] }
        var seen: Set<Int> = [start]
        var pending = [start]
        var fields: [String] = []
        while let current = pending.popLast() {
            for reference in values[current].expression.references {
                switch reference {
                case .field(let field): fields.append(field)
                case .computed(let other):
                    if let next = index(of: other), seen.insert(next).inserted { pending.append(next) }
                }
            }
        }
        return fields
    }
}
