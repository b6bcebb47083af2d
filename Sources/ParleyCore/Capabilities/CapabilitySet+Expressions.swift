/// What a core needs to evaluate an expression construct itself (docs/expressions.md "Gating and
/// lint"): the registry's `expression:` rows. The gate asks these before serving a `visibleWhen`,
/// a template or a `requiredIf` whose condition uses a 2.1 predicate form.
extension CapabilitySet {
    /// Whether the core evaluates `visibleWhen` itself (as the user answers the screen).
    public var evaluatesVisibility: Bool { bits.contains(CapabilityLookup.visibleWhenBit) }

    /// Whether the core resolves templates itself.
    public var resolvesTemplates: Bool { bits.contains(CapabilityLookup.templateBit) }

    /// The first registry row the predicate needs that the core lacks (a `computed` subject, a
    /// comparison, `matches`, `empty`), or `nil` when the core evaluates it.
    func missingRow(for predicate: Predicate) -> Int? {
        func need(_ subject: ValueReference, _ form: Int?) -> Int? {
            if subject.computedName != nil, !bits.contains(CapabilityLookup.computedBit) {
                return CapabilityLookup.computedBit
            }
            guard let form, !bits.contains(form) else { return nil }
            return form
        }
        switch predicate {
        case .equals(let subject, _), .isIn(let subject, _), .present(let subject, _): return need(subject, nil)
        case .compare(let subject, let comparison, _): return need(subject, CapabilityLookup.bit(of: comparison))
        case .matches(let subject, _): return need(subject, CapabilityLookup.matchesBit)
        case .empty(let subject, _): return need(subject, CapabilityLookup.emptyBit)
        case .all(let parts), .any(let parts):
            for part in parts { if let row = missingRow(for: part) { return row } }
            return nil
        case .not(let part): return missingRow(for: part)
        }
    }

    /// The first registry row the template needs that the core lacks: `template` itself, then
    /// `computed` and the predicate forms its expressions use. Iterative over expressions.
    func missingRow(for template: Template) -> Int? {
        guard bits.contains(CapabilityLookup.templateBit) else { return CapabilityLookup.templateBit }
        var pending: [Expression] = []
        for part in template.parts { if case .expression(let expression) = part { pending.append(expression) } }
        while let expression = pending.popLast() {
            switch expression {
            case .computed:
                if !bits.contains(CapabilityLookup.computedBit) { return CapabilityLookup.computedBit }
            case .field, .literal, .count, .unknown: break
            case .add(let parts), .mul(let parts), .min(let parts), .max(let parts), .concat(let parts):
                pending.append(contentsOf: parts)
            case .sub(let left, let right), .div(let left, let right, _): pending += [left, right]
            case .round(let operand, _): pending.append(operand)
            case .if(let condition, let then, let otherwise):
                if let row = missingRow(for: condition) { return row }
                pending += [then, otherwise]
            }
        }
        return nil
    }
}
