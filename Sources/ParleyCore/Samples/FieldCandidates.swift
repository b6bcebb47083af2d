/// Candidate answers for one input, ordered so boundary values come first
/// (`parley samples`). Candidates are guesses: ``SampleGenerator`` keeps only
/// those the interpreter confirms, so a wrong guess costs a sample, never a wrong label.
struct FieldCandidates {
    /// The input's field id.
    let field: String
    /// The input's rules, known kinds only (unknown ones cannot be aimed at).
    let rules: [Rule]
    /// The field's first valid pattern, which shapes every text candidate.
    private let program: IRegexpProgram?
    private var random: SampleRandom

    /// Candidates for `node`; the field id is mixed into the seed so fields differ but stay reproducible.
    init(node: Node, field: String, seed: UInt64) {
        self.field = field
        rules = node.validation.filter(\.isKnown)
        var program: IRegexpProgram?
        for rule in rules {
            if case .pattern(let pattern) = rule.check, let regexp = try? IRegexp(pattern) {
                program = regexp.program
                break
            }
        }
        self.program = program
        // FNV-1a over the field id's UTF-8: stable across runs, unlike `Hasher`.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in field.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        random = SampleRandom(seed: seed ^ hash)
    }

    /// Lengths worth trying: the pattern's shortest, and either side of every length bound.
    private var lengths: [Int] {
        // An empty answer passes every rule but `required`, so aim at the shortest non-empty value.
        var lengths = [max(1, program?.shortestAcceptedLength() ?? 1)]
        for rule in rules {
            switch rule.check {
            case .minLength(let count), .maxLength(let count): lengths += [count, count - 1, count + 1]
            default: break
            }
        }
        return lengths.filter { $0 >= 0 && $0 <= SampleGenerator.maximumLength }
    }

    /// A value of exactly `length` scalars in the field's shape (its pattern, e-mail, number or plain letters).
    mutating func text(length: Int) -> String? {
        if let program {
            guard let path = program.acceptingPath(length: length) else { return nil }
            var scalars = String.UnicodeScalarView()
            for pc in path {
                guard let scalar = program.representative(pc, using: &random) else { return nil }
                scalars.append(scalar)
            }
            return String(scalars)
        }
        if rules.contains(where: { if case .email = $0.check { true } else { false } }) {
            return SampleEdges.mailbox(length: length)
        }
        if rules.contains(where: \.isNumeric) {
            return length == 0 ? "" : "1" + String(repeating: "0", count: length - 1)
        }
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            scalars.append(SampleAlphabet.letters[random.index(below: SampleAlphabet.letters.count)])
        }
        return String(scalars)
    }

    /// A value of `length` scalars that the field's pattern refuses: an accepted one with its last scalar swapped.
    mutating func mismatch(length: Int) -> String? {
        guard let program, length > 0 else { return nil }
        if let path = program.acceptingPath(length: length), let accepted = text(length: length),
            let outsider = program.outsider(path[path.count - 1])
        {
            var scalars = String.UnicodeScalarView(accepted.unicodeScalars.dropLast())
            scalars.append(outsider)
            return String(scalars)
        }
        return String(repeating: "~", count: length)
    }

    /// Candidates aimed at `rule`: its boundary values, passing and failing.
    mutating func targeted(_ rule: Rule, base: Answers) -> [String] {
        var values: [String?] = []
        switch rule.check {
        case .required, .requiredIf:
            values = ["", " ", text(length: lengths[0])]
        case .minLength(let count):
            values = [
                text(length: count - 1), mismatch(length: count - 1), text(length: count), text(length: count + 1),
            ]
        case .maxLength(let count):
            values = [text(length: count + 1), mismatch(length: count + 1), text(length: count)]
        case .pattern:
            for length in lengths { values += [text(length: length), mismatch(length: length)] }
        case .oneOf(let options):
            values = options + options.map { $0 + "~" } + [text(length: lengths[0])]
        case .equalsField(let other):
            let target = base[other] ?? ""
            values = [target, text(length: target.unicodeScalars.count), target + "~"]
        case .minimum, .maximum, .exclusiveMinimum, .exclusiveMaximum, .multipleOf, .integer:
            values = numbers()
        case .email:
            values = SampleEdges.mailboxes + lengths.map { SampleEdges.mailbox(length: $0) }
        case .date(let minimum, let maximum):
            values = SampleEdges.dates(min: minimum, max: maximum)
        case .unknown:
            break
        }
        return values.compactMap { $0 }
    }

    /// Every candidate of the field: each rule's targeted values, then plain values of each length.
    mutating func pool(base: Answers) -> [String] {
        var values: [String] = []
        for rule in rules { values += targeted(rule, base: base) }
        for length in lengths + [1, 2, 3, 8] {
            values += [text(length: length), mismatch(length: length)].compactMap { $0 }
        }
        var seen = Set<ScalarKey>()
        return values.filter { seen.insert(ScalarKey($0)).inserted }
    }

    /// Numbers either side of every bound, multiples of `multipleOf` near them, and halves that are not multiples.
    private func numbers() -> [String] {
        var bounds: [SampleDecimal] = []
        var divisors: [SampleDecimal] = []
        for rule in rules {
            switch rule.check {
            case .minimum(let bound), .maximum(let bound), .exclusiveMinimum(let bound), .exclusiveMaximum(let bound):
                if let decimal = SampleDecimal(bound) { bounds.append(decimal) }
            case .multipleOf(let divisor):
                if let decimal = SampleDecimal(divisor) { divisors.append(decimal) }
            default: break
            }
        }
        var values: [SampleDecimal] = []
        for bound in bounds {
            let fine = bound.widened(by: 1).unit
            values += [
                bound, bound.subtracting(bound.unit), bound.adding(bound.unit), bound.subtracting(fine),
                bound.adding(fine),
            ]
            let half = SampleDecimal(isNegative: false, digits: [5], scale: 1)
            values += [bound.adding(half), bound.subtracting(half)]
        }
        for divisor in divisors {
            var quotients = [1, 2, 3]
            for bound in bounds {
                if let estimate = Double(bound.text).flatMap({ b in Double(divisor.text).map { b / $0 } }),
                    estimate.isFinite, abs(estimate) < 1e12
                {
                    let rounded = Int(estimate.rounded())
                    quotients += [rounded - 1, rounded, rounded + 1, rounded + 2]
                }
            }
            for quotient in quotients {
                values.append(divisor.multiplied(by: quotient))
                // divisor × (quotient + ½) is never a multiple of divisor.
                var half = divisor.multiplied(by: (2 * quotient + 1) * 5)
                half.scale += 1
                values.append(half)
            }
        }
        return values.map(\.text) + ["1", "0", "-1", "10", "1.5", "100"]
    }
}

extension Rule {
    /// Whether the rule reads the answer as a number (the number grammar of docs/rules.md).
    var isNumeric: Bool {
        switch check {
        case .minimum, .maximum, .exclusiveMinimum, .exclusiveMaximum, .multipleOf, .integer: return true
        default: return false
        }
    }
}
