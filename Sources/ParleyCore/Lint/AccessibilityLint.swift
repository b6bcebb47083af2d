/// Accessibility checks of a flow or screen (issue 26), from WCAG 2.2 criteria that apply to
/// semantic, token-only layouts: every input labelled, every image described or marked
/// `"decorative": true`, buttons with a readable title of bounded length, no two inputs or two
/// differently acting buttons of one screen named alike, options that read differently, every
/// screen titled, every rule with a message.
///
/// Findings are ``LintSeverity/warning``s (a flow still publishes) unless the flow declares
/// `"accessibility": "strict"`, which makes them errors. Checks run in every declared locale
/// (a French label may collide where the English one does not); each finding is reported once.
public struct AccessibilityLint: Sendable {
    /// The longest button title, in Unicode scalars, that still reads as a button (WCAG 2.4.6:
    /// a title names the action; longer text belongs in the screen). Default 40.
    public var maximumButtonTitleLength: Int
    /// Deepest node nesting walked (the structural lint reports deeper trees).
    public var maximumNodeDepth: Int

    /// Creates the checks with the given bounds.
    public init(maximumButtonTitleLength: Int = 40, maximumNodeDepth: Int = DocumentLimits().maximumNodeDepth) {
        self.maximumButtonTitleLength = maximumButtonTitleLength
        self.maximumNodeDepth = maximumNodeDepth
    }

    /// The flow-level member's values: `"warn"` (the default) and `"strict"`.
    public static let modes = ["warn", "strict"]

    /// Findings for a `parley.flow/1` document (pointers relative to it).
    public func problems(flow: JSONValue) -> [LintProblem] {
        var problems: [LintProblem] = []
        var severity = LintSeverity.warning
        if let mode = flow["accessibility"], !mode.isNull {
            switch mode.stringValue {
            case "strict": severity = .error
            case "warn": break
            default:
                problems.append(
                    LintProblem(
                        .invalidValue, pointer: JSONPointer.root.appending("accessibility"),
                        message:
                            "\"accessibility\" must be \"warn\" (the default) or \"strict\" (findings refuse publishing)."
                    ))
            }
        }
        let (plain, localization) = FlowLocalization.extract(from: flow)
        var walk = AccessibilityWalk(lint: self, severity: severity)
        walk.flow(plain)
        for locale in (localization?.locales ?? []).dropFirst() {
            guard let localization else { break }
            walk.locale = locale
            walk.flow(localization.resolved(plain, to: locale))
        }
        return problems + walk.problems
    }

    /// Findings for a `parley.screen/1` document on its own (always warnings).
    public func problems(screen: JSONValue) -> [LintProblem] {
        var walk = AccessibilityWalk(lint: self, severity: .warning)
        walk.screen(screen, at: .root)
        return walk.problems
    }
}
