/// A recursive-descent parser for exactly RFC 9485's grammar (§2), plus
/// docs/rules.md's publish-time limits and its refusal of unescaped `^`/`$`.
///
/// Everything outside the grammar is an error with the scalar offset of the
/// offending character: no multi-character escapes (`\d`, `\w`), no
/// backreferences, no lazy or possessive quantifiers, no anchors.
struct IRegexpParser {
    private let scalars: [Unicode.Scalar]
    private var position = 0

    /// Parses a whole pattern.
    static func parse(_ pattern: String) throws(IRegexpSyntaxError) -> IRegexpNode {
        var parser = IRegexpParser(scalars: Array(pattern.unicodeScalars))
        if parser.scalars.count > RuleLimits.maximumPatternScalars {
            throw IRegexpSyntaxError(
                position: RuleLimits.maximumPatternScalars,
                reason: "the pattern is longer than \(RuleLimits.maximumPatternScalars) characters")
        }
        let node = try parser.parseAlternation()
        if parser.position < parser.scalars.count {
            // Only an unmatched ')' stops the top-level alternation early.
            throw parser.error("unmatched ')'; write \\) for the character")
        }
        return node
    }

    private init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func peek(at offset: Int) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private func error(_ reason: String, at offset: Int? = nil) -> IRegexpSyntaxError {
        IRegexpSyntaxError(position: offset ?? position, reason: reason)
    }

    // i-regexp = branch *( "|" branch )
    private mutating func parseAlternation() throws(IRegexpSyntaxError) -> IRegexpNode {
        var branches = [try parseBranch()]
        while peek == "|" {
            position += 1
            branches.append(try parseBranch())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    // branch = *piece
    private mutating func parseBranch() throws(IRegexpSyntaxError) -> IRegexpNode {
        var pieces: [IRegexpNode] = []
        while let next = peek, next != "|", next != ")" {
            pieces.append(try parsePiece())
        }
        switch pieces.count {
        case 0: return .empty
        case 1: return pieces[0]
        default: return .concatenation(pieces)
        }
    }

    // piece = atom [ quantifier ]
    private mutating func parsePiece() throws(IRegexpSyntaxError) -> IRegexpNode {
        let atom = try parseAtom()
        switch peek {
        case "*":
            position += 1
            return .repetition(atom, minimum: 0, maximum: nil, isRange: false)
        case "+":
            position += 1
            return .repetition(atom, minimum: 1, maximum: nil, isRange: false)
        case "?":
            position += 1
            return .repetition(atom, minimum: 0, maximum: 1, isRange: false)
        case "{":
            let start = position
            let (minimum, maximum) = try parseRangeQuantifier()
            if atom.containsRangeQuantifier {
                throw error("range quantifiers must not be nested", at: start)
            }
            return .repetition(atom, minimum: minimum, maximum: maximum, isRange: true)
        default:
            return atom
        }
    }

    // range-quantifier = "{" QuantExact [ "," [ QuantExact ] ] "}"
    private mutating func parseRangeQuantifier() throws(IRegexpSyntaxError) -> (Int, Int?) {
        let start = position
        position += 1
        guard let minimum = try parseBound() else { throw error("a range quantifier needs a number after '{'") }
        var maximum: Int? = minimum
        if peek == "," {
            position += 1
            maximum = try parseBound()
        }
        guard peek == "}" else { throw error("expected '}' to close the range quantifier") }
        position += 1
        if let maximum, maximum < minimum {
            throw error("the range quantifier's maximum is below its minimum", at: start)
        }
        return (minimum, maximum)
    }

    private mutating func parseBound() throws(IRegexpSyntaxError) -> Int? {
        let start = position
        var value = 0
        while let next = peek, next.value >= 0x30, next.value <= 0x39 {
            value = min(value * 10 + Int(next.value - 0x30), RuleLimits.maximumRangeBound + 1)
            position += 1
        }
        if position == start { return nil }
        if value > RuleLimits.maximumRangeBound {
            throw error("range quantifier bounds must be at most \(RuleLimits.maximumRangeBound)", at: start)
        }
        return value
    }

    // atom = NormalChar / charClass / ( "(" i-regexp ")" )
    private mutating func parseAtom() throws(IRegexpSyntaxError) -> IRegexpNode {
        guard let next = peek else { throw error("unexpected end of pattern") }
        switch next {
        case "(":
            let open = position
            position += 1
            let inner = try parseAlternation()
            guard peek == ")" else { throw error("unclosed '('", at: open) }
            position += 1
            return inner
        case "[":
            return .set(try parseClassExpression())
        case ".":
            position += 1
            return .set(.dot)
        case "\\":
            return try parseEscapeAtom()
        case "*", "+", "?", "{":
            throw error("quantifier '\(next)' has nothing to repeat; write \\\(next) for the character")
        case "]", "}":
            throw error("'\(next)' must be escaped as \\\(next)")
        case "^":
            throw error("unescaped '^' is an anchor in many engines; write \\^ for the character (docs/rules.md)")
        case "$":
            throw error("unescaped '$' is an anchor in many engines; write [$] for the character (docs/rules.md)")
        default:
            position += 1
            return .scalar(next)
        }
    }

    /// `\` outside a class: a SingleCharEsc or a category escape.
    private mutating func parseEscapeAtom() throws(IRegexpSyntaxError) -> IRegexpNode {
        if let kind = peek(at: 1), kind == "p" || kind == "P" {
            return .set(.category(try parseCategoryEscape(), complemented: kind == "P"))
        }
        return .scalar(try parseSingleCharEscape())
    }

    // SingleCharEsc = "\" ( %x28-2B / "-" / "." / "?" / %x5B-5E / "n" / "r" / "t" / %x7B-7D )
    private mutating func parseSingleCharEscape() throws(IRegexpSyntaxError) -> Unicode.Scalar {
        let start = position
        position += 1
        guard let escaped = peek else { throw error("a pattern cannot end with '\\'", at: start) }
        position += 1
        switch escaped {
        case "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}": return escaped
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        default:
            throw error("'\\\(escaped)' is not an I-Regexp escape (RFC 9485 has no \\d, \\w, \\s, \\b…)", at: start)
        }
    }

    // catEsc = "\p{" charProp "}" ; complEsc = "\P{" charProp "}"
    private mutating func parseCategoryEscape() throws(IRegexpSyntaxError) -> UInt32 {
        let start = position
        position += 2
        guard peek == "{" else { throw error("expected '{' after \\p or \\P") }
        position += 1
        var name = ""
        while let next = peek, next != "}" {
            guard name.unicodeScalars.count < 2 else { break }
            name.unicodeScalars.append(next)
            position += 1
        }
        guard peek == "}", let mask = GeneralCategoryMask.mask(named: name) else {
            throw error(
                "unknown general category; RFC 9485 allows L, Lu, Ll, Lt, Lm, Lo, M…, N…, P…, S…, Z…, C…", at: start)
        }
        position += 1
        return mask
    }

    // charClassExpr = "[" [ "^" ] ( "-" / CCE1 ) *CCE1 [ "-" ] "]"
    private mutating func parseClassExpression() throws(IRegexpSyntaxError) -> IRegexpScalarSet {
        let open = position
        position += 1
        var set = IRegexpScalarSet()
        if peek == "^" {
            set.isNegated = true
            position += 1
        }
        var isEmpty = true
        if peek == "-" {
            set.add(0x2D...0x2D)
            isEmpty = false
            position += 1
        }
        while true {
            guard let next = peek else { throw error("unclosed '['", at: open) }
            if next == "]" {
                if isEmpty { throw error("a character class cannot be empty; write \\] for the character") }
                position += 1
                break
            }
            if next == "-" {
                guard peek(at: 1) == "]" else {
                    throw error("'-' inside a class must come first or last, or be escaped as \\-")
                }
                set.add(0x2D...0x2D)
                position += 1
            } else if next == "\\", let kind = peek(at: 1), kind == "p" || kind == "P" {
                set.addCategory(try parseCategoryEscape(), complemented: kind == "P")
            } else {
                let rangeStart = position
                let low = try parseClassCharacter()
                if peek == "-", let after = peek(at: 1), after != "]" {
                    position += 1
                    if after == "\\", let kind = peek(at: 1), kind == "p" || kind == "P" {
                        throw error("a range cannot end in a category escape")
                    }
                    let high = try parseClassCharacter()
                    guard low.value <= high.value else {
                        throw error("the range's end is below its start", at: rangeStart)
                    }
                    set.add(low.value...high.value)
                } else {
                    set.add(low.value...low.value)
                }
            }
            isEmpty = false
        }
        set.finish()
        return set
    }

    // CCchar = ( %x00-2C / %x2E-5A / %x5E-D7FF / %xE000-10FFFF ) / SingleCharEsc
    private mutating func parseClassCharacter() throws(IRegexpSyntaxError) -> Unicode.Scalar {
        guard let next = peek else { throw error("unexpected end of pattern inside '['") }
        switch next {
        case "\\": return try parseSingleCharEscape()
        case "[": throw error("'[' inside a class must be escaped as \\[")
        case "-": throw error("'-' inside a class must come first or last, or be escaped as \\-")
        default:
            position += 1
            return next
        }
    }
}
