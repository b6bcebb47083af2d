/// An I-Regexp (RFC 9485), compiled for whole-value matching in linear time.
///
/// docs/rules.md: the whole value is always matched (no
/// anchors needed, unescaped `^`/`$` refused), over Unicode scalars, by an NFA
/// simulation that never backtracks. Publish-time limits (``RuleLimits``) are
/// part of validity, so every accepted pattern compiles to a bounded program.
public struct IRegexp: Sendable {
    /// The pattern as written.
    public let pattern: String
    /// Internal so the sample generator can walk the automaton (``IRegexpProgram+Walk``).
    let program: IRegexpProgram

    /// Parses and compiles a pattern; throws with the scalar position and reason when it is not valid.
    public init(_ pattern: String) throws(IRegexpSyntaxError) {
        self.pattern = pattern
        self.program = IRegexpProgram(try IRegexpParser.parse(pattern))
    }

    /// Whether the whole of `value`, as Unicode scalars, matches the pattern.
    public func matches(_ value: String) -> Bool {
        program.matches(value.unicodeScalars)
    }

    /// Size of the compiled program in NFA instructions (matching costs at most this per input scalar).
    public var instructionCount: Int { program.instructions.count }

    /// Why `pattern` is not a valid I-Regexp, or `nil` when it is.
    public static func syntaxError(in pattern: String) -> IRegexpSyntaxError? {
        do {
            _ = try IRegexpParser.parse(pattern)
            return nil
        } catch {
            return error
        }
    }
}
