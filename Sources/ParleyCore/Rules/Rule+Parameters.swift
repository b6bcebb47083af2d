extension Rule {
    /// Why the rule's parameters cannot be evaluated, or `nil` when they are well-formed.
    ///
    /// The linter reports this at publish time; `parley validate` treats it as
    /// unreadable input. Covers what decoding alone cannot: an invalid I-Regexp
    /// (``PatternSyntax``), `date` bounds that are not real RFC 3339 full-dates
    /// or are out of order, and `minLength`/`maxLength`-style counts are
    /// already checked by decoding. Unknown kinds have no problem here.
    public var parameterProblem: String? {
        switch check {
        case .pattern(let pattern):
            return IRegexp.syntaxError(in: pattern).map { "invalid I-Regexp \($0)" }
        case .date(let minimum, let maximum):
            var ordinals: [Int] = []
            for (name, bound) in [("min", minimum), ("max", maximum)] {
                guard let bound else { continue }
                guard let ordinal = FullDateSyntax.ordinal(bound) else {
                    return "\"\(name)\" must be a real date written YYYY-MM-DD, found \"\(bound)\""
                }
                ordinals.append(ordinal)
            }
            if minimum != nil, maximum != nil, ordinals[0] > ordinals[1] {
                return "\"min\" is after \"max\""
            }
            return nil
        default:
            return nil
        }
    }
}
