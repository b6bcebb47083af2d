/// Evaluates expressions, predicates and templates over a set of answers and a flow's computed
/// values (docs/expressions.md): pure, total and linear. Computed values are evaluated on
/// first use, dependencies first, each once (memoized) until the answers change; a value in a
/// cycle is empty.
///
/// `answers` are what `{"field": id}` reads: the path's answers and this screen's, with hidden
/// fields already cleared (``ScreenVisibility`` clears them as it walks a screen).
public struct ExpressionEvaluator: Sendable {
    private let graph: ComputedGraph
    /// The answers fields read.
    public private(set) var answers: Answers
    private var memo: [ExpressionValue?]

    /// An evaluator over `answers` and the given computed values.
    public init(computed: [ComputedValue] = [], answers: Answers) {
        self.init(graph: ComputedGraph(computed), answers: answers)
    }

    /// An evaluator over `answers` and the flow's computed values, with the dependency graph the
    /// flow built once.
    public init(flow: Flow, answers: Answers) {
        self.init(graph: flow.computedGraph, answers: answers)
    }

    init(graph: ComputedGraph, answers: Answers) {
        self.graph = graph
        self.answers = answers
        memo = [ExpressionValue?](repeating: nil, count: graph.values.count)
    }

    /// Removes a field's answer (it is hidden): it reads as empty from now on.
    public mutating func clear(_ fieldId: String) {
        guard answers.hasValue(fieldId) else { return }
        answers[fieldId] = nil
        for index in memo.indices { memo[index] = nil }
    }

    /// The value of an expression.
    public mutating func value(of expression: Expression) -> ExpressionValue {
        evaluate(expression, depth: 1)
    }

    /// The value of a computed value by name; empty for a name the flow does not declare.
    public mutating func computed(_ name: String) -> ExpressionValue {
        guard let index = graph.index(of: name) else { return .empty }
        return value(at: index)
    }

    /// Every computed value, in the flow's order.
    public mutating func computedValues() -> [(name: String, value: ExpressionValue)] {
        graph.values.indices.map { (graph.values[$0].name, value(at: $0)) }
    }

    /// Whether a predicate holds.
    public mutating func holds(_ predicate: Predicate) -> Bool {
        predicate.holds { reference in read(reference) }
    }

    /// A template's text: its parts concatenated, an empty expression adding nothing.
    public mutating func text(of template: Template) -> String {
        var text = ""
        for part in template.parts {
            switch part {
            case .text(let piece): text += piece
            case .expression(let expression): text += value(of: expression).text ?? ""
            }
        }
        return text
    }

    /// What a predicate's subject reads: the raw answer, or the computed value's text.
    mutating func read(_ reference: ValueReference) -> String? {
        switch reference {
        case .field(let name): return answers[name]
        case .computed(let name): return computed(name).text
        }
    }

    /// The immutable view of the current answers and every computed value.
    public mutating func environment() -> ExpressionEnvironment {
        ExpressionEnvironment(answers: answers, computedValues: computedValues())
    }

    private mutating func value(at index: Int) -> ExpressionValue {
        if let known = memo[index] { return known }
        // Evaluate every value this one needs, dependencies first, without recursion.
        var needed: [Int] = []
        var seen: Set<Int> = [index]
        var pending = [index]
        while let next = pending.popLast() {
            needed.append(next)
            for dependency in graph.dependencies[next] where memo[dependency] == nil && seen.insert(dependency).inserted
            {
                pending.append(dependency)
            }
        }
        needed.sort { graph.position[$0] < graph.position[$1] }
        for member in needed {
            memo[member] = graph.cyclic[member] ? .empty : evaluate(graph.values[member].expression, depth: 1)
        }
        return memo[index] ?? .empty
    }

    private mutating func evaluate(_ expression: Expression, depth: Int) -> ExpressionValue {
        guard depth <= ExpressionLimits.maximumEvaluationDepth else { return .empty }
        switch expression {
        case .field(let name): return ExpressionValue(answers[name])
        case .computed(let name):
            guard let index = graph.index(of: name) else { return .empty }
            // Inside a computed value, its dependencies are already memoized (or in its cycle).
            return memo[index] ?? value(at: index)
        case .literal(let text): return ExpressionValue(text)
        case .add(let parts):
            guard !parts.isEmpty, let terms = numbers(parts, depth: depth) else { return .empty }
            return Self.result(DecimalArithmetic.sum(terms))
        case .sub(let left, let right):
            guard let terms = numbers([left, right], depth: depth) else { return .empty }
            return Self.result(DecimalArithmetic.difference(terms[0], terms[1]))
        case .mul(let parts):
            guard !parts.isEmpty, let factors = numbers(parts, depth: depth) else { return .empty }
            return Self.result(DecimalArithmetic.product(factors))
        case .div(let left, let right, let scale):
            guard let terms = numbers([left, right], depth: depth) else { return .empty }
            return Self.result(DecimalArithmetic.quotient(terms[0], terms[1], scale: scale))
        case .round(let operand, let scale):
            guard let terms = numbers([operand], depth: depth) else { return .empty }
            return Self.result(DecimalArithmetic.rounded(terms[0], scale: scale))
        case .min(let parts), .max(let parts):
            guard !parts.isEmpty, let terms = numbers(parts, depth: depth) else { return .empty }
            var chosen = terms[0]
            let wantsLeast: Bool
            if case .min = expression { wantsLeast = true } else { wantsLeast = false }
            for term in terms.dropFirst() {
                let order = JSONNumber.compare(term, chosen)
                if wantsLeast ? order < 0 : order > 0 { chosen = term }
            }
            return Self.result(chosen)
        case .concat(let parts):
            var text = ""
            for part in parts { text += evaluate(part, depth: depth + 1).text ?? "" }
            return ExpressionValue(text)
        case .count(let fields):
            var seen = Set<ScalarKey>()
            var count = 0
            for field in fields where seen.insert(ScalarKey(field)).inserted && !answers.isEmpty(field) { count += 1 }
            return .text(String(count))
        case .if(let predicate, let then, let otherwise):
            return evaluate(holds(predicate) ? then : otherwise, depth: depth + 1)
        case .unknown:
            return .empty
        }
    }

    /// The operands as exact numbers, or `nil` when one is empty or not the number grammar of docs/rules.md.
    private mutating func numbers(_ parts: [Expression], depth: Int) -> [JSONNumber]? {
        var result: [JSONNumber] = []
        result.reserveCapacity(parts.count)
        for part in parts {
            guard let text = evaluate(part, depth: depth + 1).text, let number = JSONNumber(parsing: text) else {
                return nil
            }
            result.append(number)
        }
        return result
    }

    /// An arithmetic result in canonical form, or empty.
    private static func result(_ number: JSONNumber?) -> ExpressionValue {
        guard let number, let text = DecimalArithmetic.canonicalText(number) else { return .empty }
        return .text(text)
    }
}
