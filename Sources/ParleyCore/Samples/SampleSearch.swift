/// The search behind ``SampleGenerator``: candidate values per input, kept
/// only when the interpreter agrees with the label they would get.
struct SampleSearch {
    let screen: Screen
    /// The step's inputs, one per field id, in document order.
    let nodes: [Node]
    /// Their field ids.
    let fields: [String]
    private var candidates: [FieldCandidates]
    /// Answers that pass every rule of the step (as far as the search could find them).
    private(set) var base = Answers()

    /// `context`: answers of earlier steps that rules of this one may name (docs/sessions.md).
    init(screen: Screen, seed: UInt64, context: Answers) {
        self.screen = screen
        base = context
        var seen = Set<ScalarKey>()
        var nodes: [Node] = []
        for node in screen.inputs {
            if let field = node.fieldId, seen.insert(ScalarKey(field)).inserted { nodes.append(node) }
        }
        self.nodes = nodes
        fields = nodes.map { $0.fieldId ?? "" }
        candidates = zip(nodes, fields).map { FieldCandidates(node: $0, field: $1, seed: seed) }
    }

    /// Fills `base` field by field; a few rounds let `equalsField` copy a value chosen after it.
    mutating func settleBase() {
        for _ in 0..<3 {
            for index in fields.indices {
                let pool = candidates[index].pool(base: base)
                if let value = pool.first(where: { passesAll(index, with($0, for: index)) }) {
                    base[fields[index]] = value
                }
            }
        }
    }

    /// `answers` without fields of other steps: what a client sends for this step.
    func stepAnswers(_ answers: Answers) -> Answers {
        var result = Answers()
        for field in fields { result[field] = answers[field] }
        return result
    }

    /// Whether the whole step validates (client mode: unknown kinds are deferred, not failed).
    func isValid(_ answers: Answers) -> Bool {
        RuleInterpreter(mode: .client).validate(screen: screen, answers: stepAnswers(answers), context: answers).valid
    }

    /// Base answers passing everything, with the field's value at `rule`'s boundary.
    mutating func passing(_ index: Int, aimedAt rule: Rule) -> Answers? {
        let values = candidates[index].targeted(rule, base: base) + candidates[index].pool(base: base)
        for value in values {
            let answers = with(value, for: index)
            if passesAll(index, answers), isValid(answers) { return answers }
        }
        return nil
    }

    /// Base answers with the field's value failing `rule` and nothing else on the step.
    mutating func failing(_ index: Int, only rule: Rule) -> Answers? {
        if case .requiredIf(let predicate) = rule.check { return failingRequiredIf(index, predicate) }
        let values = candidates[index].targeted(rule, base: base) + candidates[index].pool(base: base)
        for value in values {
            let answers = with(value, for: index)
            if failsOnly(index, rule, answers) { return answers }
        }
        return nil
    }

    /// An empty answer where the predicate holds: change the fields it reads to its own literals until it does.
    private func failingRequiredIf(_ index: Int, _ predicate: Predicate) -> Answers? {
        let empty = with("", for: index)
        var attempts = [empty]
        let readable = predicate.fields.filter { field in
            !field.isScalarEqual(to: fields[index]) && fields.contains { $0.isScalarEqual(to: field) }
        }
        var options: [(String, [String])] = []
        for field in readable where !options.contains(where: { $0.0.isScalarEqual(to: field) }) {
            let literals = predicate.literals(for: field)
            options.append((field, literals + literals.map { $0 + "~" } + ["", base[field] ?? ""]))
        }
        for (field, values) in options {
            for value in values {
                var answers = empty
                answers[field] = value
                attempts.append(answers)
            }
        }
        for (first, second) in zip(options, options.dropFirst()) {
            for a in first.1 {
                for b in second.1 {
                    var answers = empty
                    answers[first.0] = a
                    answers[second.0] = b
                    attempts.append(answers)
                }
            }
        }
        let rule = nodes[index].validation.first { if case .requiredIf = $0.check { true } else { false } }
        for answers in attempts.prefix(SampleGenerator.maximumPredicateAttempts) {
            if let rule, failsOnly(index, rule, answers) { return answers }
        }
        return nil
    }

    /// Base answers with the field set to `value`, and every field that must equal it (`equalsField`) following,
    /// so a sample changes one answer as the person would: retyping the confirmation too.
    private func with(_ value: String, for index: Int) -> Answers {
        var answers = base
        answers[fields[index]] = value
        for (other, node) in nodes.enumerated() where other != index {
            let follows = node.validation.contains { rule in
                if case .equalsField(let target) = rule.check { return target.isScalarEqual(to: fields[index]) }
                return false
            }
            if follows { answers[fields[other]] = value }
        }
        return answers
    }

    /// Every known rule of the field passes.
    private func passesAll(_ index: Int, _ answers: Answers) -> Bool {
        candidates[index].rules.allSatisfy { evaluate($0, index, answers) == .pass }
    }

    /// Exactly `rule` fails among the field's rules, under its own name, and it is the step's only error.
    private func failsOnly(_ index: Int, _ rule: Rule, _ answers: Answers) -> Bool {
        for other in candidates[index].rules {
            let result = evaluate(other, index, answers)
            if other == rule {
                guard case .fail(let name, _) = result, name == rule.name else { return false }
            } else if result != .pass {
                return false
            }
        }
        let errors = RuleInterpreter(mode: .client).validate(
            screen: screen, answers: stepAnswers(answers), context: answers
        ).errors
        return errors.count == 1 && errors[0].field.isScalarEqual(to: fields[index]) && errors[0].rule == rule.name
    }

    private func evaluate(_ rule: Rule, _ index: Int, _ answers: Answers) -> RuleEvaluation {
        var value = FieldValue(answers[fields[index]])
        return RuleEvaluation.check(rule, field: &value, answers: answers, mode: .server)
    }
}

extension Predicate {
    /// The values the predicate compares `field` with, in order of appearance.
    func literals(for field: String) -> [String] {
        switch self {
        case .equals(let name, let value): return name.isScalarEqual(to: field) ? [value] : []
        case .isIn(let name, let values): return name.isScalarEqual(to: field) ? values : []
        case .present: return []
        case .all(let parts), .any(let parts): return parts.flatMap { $0.literals(for: field) }
        case .not(let part): return part.literals(for: field)
        }
    }
}
