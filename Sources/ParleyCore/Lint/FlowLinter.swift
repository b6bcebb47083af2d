/// Publish-time checks of flow, screen and bundle documents (issue 2,
/// docs/wire-format.md): a pure function from raw JSON to **every** problem found,
/// each with a stable code, an RFC 6901 JSON Pointer and a sentence a designer
/// understands.
///
/// The linter works on the raw ``JSONValue`` rather than the decoded model so it
/// can report all problems at once. A document that lints clean always decodes
/// with the model (``Flow``, ``Screen``, ``Bundle``); the linter is stricter than
/// the decoder, which must stay tolerant of documents newer than itself, while
/// the server only stores what it understands.
///
/// | code | meaning |
/// |---|---|
/// | `unsupportedSchema` | `schema` is missing, malformed, of another document kind or of an unknown major version. |
/// | `missingMember` | A required member is absent (e.g. a node's `id`, an input's `fieldId`, a button's `action`). |
/// | `wrongType` | A member has the wrong JSON type (e.g. a number where a string is expected). |
/// | `invalidValue` | A member has the right type but an unacceptable value (e.g. an empty id). |
/// | `limitExceeded` | A documented `DocumentLimits` bound is exceeded (depth, counts, string sizes). |
/// | `unknownComponentType` | A node's `type` is not in the component vocabulary. |
/// | `unknownActionType` | An action's `type` is not submit, openUrl, subscribe or network. |
/// | `unknownRuleKind` | A validation rule's `rule` is not a kind the interpreter knows. |
/// | `duplicateNodeId` | Two nodes of one screen (fallbacks included) share an `id`. |
/// | `duplicateFieldId` | Two inputs of one flow share a `fieldId` (a node and its fallbacks count once). |
/// | `duplicateStepId` | Two steps of one flow share an `id`. |
/// | `duplicateFlowId` | Two flows of one bundle share an `id`. |
/// | `duplicateOption` | An input's `options` list repeats a value. |
/// | `fallbackFieldMismatch` | A fallback does not carry its node's `fieldId`, or introduces a field its node lacks. |
/// | `childrenNotAllowed` | A node whose type is not a container has `children`. |
/// | `validationWithoutField` | A node has `validation` rules but no `fieldId` to apply them to. |
/// | `unknownStep` | `start` or a `goto` names no step of the flow. |
/// | `unreachableStep` | No path of `goto`s from `start` reaches the step. |
/// | `unknownField` | `include`, `equalsField` or a predicate names a field the flow does not have. |
/// | `invalidNetworkMethod` | A network request's `method` is not GET, POST, PUT, PATCH or DELETE. |
/// | `invalidNetworkPath` | A network request's `path` is not relative (scheme, host, `//`, leading `/`, `.`/`..`). |
/// | `networkHeadersNotAllowed` | A network request carries `headers`; the client injects auth itself. |
/// | `openUrlNotHttps` | An openUrl action's `url` is not an absolute `https://` URL. |
/// | `invalidRuleParameter` | A rule's parameter is missing, ill-typed or out of range. |
/// | `invalidPattern` | A pattern rule's `value` is not an acceptable I-Regexp (RFC 9485, docs/rules.md). |
/// | `invalidPredicate` | A predicate does not have exactly one operator (equals, in, present, all, any, not). |
/// | `unservableStep` | A supported core cannot render a step and the flow has no `upgrade` screen. |
/// | `unservableUpgradeScreen` | A supported core cannot render the flow's `upgrade` screen. |
/// | `invalidLocaleTag` | A `locales` entry is not a well-formed BCP 47 language tag. |
/// | `undeclaredLocale` | A localized string names a locale the flow does not declare (or it declares none). |
/// | `missingLocale` | A localized string lacks one of the flow's declared locales. |
/// | `fieldNotOnEveryPath` | `equalsField` or a predicate names a field of a step that is not on every path from `start` to it. |
///
/// Accessibility findings (``AccessibilityLint``) are warnings unless the flow declares
/// `"accessibility": "strict"`; a linter built with `includesWarnings: false` (publishing,
/// bundling) returns only what refuses publishing.
///
/// | code | meaning |
/// |---|---|
/// | `inputWithoutLabel` | An input has no `label` (a placeholder is not a label). |
/// | `imageWithoutAlt` | An image has no `alt` and is not marked `"decorative": true`. |
/// | `buttonWithoutTitle` | A button has no `title`, or one of symbols only. |
/// | `duplicateInputLabel` | Two inputs of one screen share a label. |
/// | `duplicateOptionLabel` | Two options read the same once case and spaces are ignored. |
/// | `screenWithoutTitle` | A screen has no `title`. |
/// | `buttonTitleTooLong` | A button's title is longer than `AccessibilityLint.maximumButtonTitleLength`. |
/// | `ruleWithoutMessage` | A validation rule has no `message`. |
/// | `duplicateButtonTitle` | Two buttons of one screen share a title but act differently. |
///
/// Expressions (docs/expressions.md):
///
/// | code | meaning |
/// |---|---|
/// | `invalidExpression` | An expression names no form Parley knows, or more than one, or has ill-typed operands. |
/// | `unknownComputed` | An expression or predicate reads a computed value the flow does not declare. |
/// | `computedCycle` | Computed values read each other in a cycle (the message names its members). |
/// | `templateReadsSensitiveField` | A template reads a `sensitive` field, directly or through a computed value. |
/// | `visibleWhenReadsLaterStep` | A `visibleWhen` reads a field of a step not on every path before its own. |
/// | `fieldMayBeHidden` | Warning: `requiredIf`/`equalsField` names a field `visibleWhen` can hide. |
///
/// Every problem has a ``LintProblem/severity``: warnings never block publishing.
public struct FlowLinter: Sendable {
    /// The bounds enforced (each reported as `limitExceeded`).
    public let limits: DocumentLimits

    /// Oldest core every step must be servable to (docs/gating.md: publishing lints
    /// servability); `nil` skips the servability check.
    public let servabilityFloor: CoreVersion?

    /// Whether warnings (accessibility findings of a flow that is not `strict`) are returned:
    /// true where people read the report (`parley lint`, `POST /v1/flows/lint`, the studio),
    /// false where the answer is only whether a document may ship.
    public let includesWarnings: Bool

    /// The accessibility checks run on every flow and screen.
    public let accessibility: AccessibilityLint

    /// Creates a linter with the given limits and servability floor.
    public init(
        limits: DocumentLimits = DocumentLimits(), servabilityFloor: CoreVersion? = .floor,
        includesWarnings: Bool = false, accessibility: AccessibilityLint = AccessibilityLint()
    ) {
        self.servabilityFloor = servabilityFloor
        self.limits = limits
        self.includesWarnings = includesWarnings
        self.accessibility = accessibility
    }

    /// Lints a `parley.flow/1` document.
    public func lint(flow: JSONValue) -> [LintProblem] {
        let problems = run(flow) { walk in walk.lintFlow(flow, at: .root) }
        // Warnings never block: a flow with only warnings is still checked for servability.
        let structural =
            problems.contains(where: { $0.isError }) ? problems : problems + servabilityProblems(flow, at: [])
        return structural + accessibilityProblems(accessibility.problems(flow: flow), at: [])
    }

    /// Lints a `parley.screen/1` document on its own: field references must
    /// name fields of the same screen.
    public func lint(screen: JSONValue) -> [LintProblem] {
        run(screen) { walk in walk.lintStandaloneScreen(screen, at: .root) }
            + accessibilityProblems(accessibility.problems(screen: screen), at: [])
    }

    /// Lints a `parley.bundle/1` document: every flow, and flow ids unique.
    public func lint(bundle: JSONValue) -> [LintProblem] {
        let problems = run(bundle) { walk in walk.lintBundle(bundle, at: .root) }
        guard case .array(let flows)? = bundle["flows"] else { return problems }
        let findings = flows.enumerated().flatMap { index, flow in
            accessibilityProblems(accessibility.problems(flow: flow), at: ["flows", String(index)])
        }
        // Warnings never block: a bundle with only warnings is still checked for servability.
        guard !problems.contains(where: { $0.isError }) else { return problems + findings }
        return problems
            + flows.enumerated().flatMap { index, flow in servabilityProblems(flow, at: ["flows", String(index)]) }
            + findings
    }

    /// Accessibility findings moved under `prefix`, without warnings unless ``includesWarnings``,
    /// and no more than ``DocumentLimits/maximumProblems``.
    private func accessibilityProblems(_ findings: [LintProblem], at prefix: [String]) -> [LintProblem] {
        findings.lazy.filter { includesWarnings || $0.severity == .error }.prefix(limits.maximumProblems).map {
            problem in
            LintProblem(
                code: problem.code, pointer: JSONPointer(tokens: prefix + problem.pointer.tokens),
                message: problem.message, severity: problem.severity)
        }
    }

    /// A structurally clean flow must also be servable from ``servabilityFloor`` on
    /// (``Servability``): a step some supported core cannot render needs an `upgrade` screen.
    private func servabilityProblems(_ document: JSONValue, at prefix: [String]) -> [LintProblem] {
        guard let floor = servabilityFloor, let flow = try? Flow(json: document, at: .root) else { return [] }
        let problems = Servability(floor: floor).analyze(flow).problems
        return problems.map { problem in
            LintProblem(
                code: problem.code, pointer: JSONPointer(tokens: prefix + problem.pointer.tokens),
                message: problem.message)
        }
    }

    /// Lints any Parley document, dispatching on its `schema` (flow, screen or
    /// bundle); a missing or unknown `schema` is reported as `unsupportedSchema`.
    public func lint(document: JSONValue) -> [LintProblem] {
        switch Self.documentKind(of: document) {
        case "flow": return lint(flow: document)
        case "screen": return lint(screen: document)
        case "bundle": return lint(bundle: document)
        default:
            guard case .object(let object) = document else {
                return [
                    LintProblem(
                        code: LintCode.wrongType.rawValue, pointer: .root,
                        message: "A Parley document must be an object, found \(document.kindDescription).")
                ]
            }
            let found = object["schema"].map { CanonicalJSON.string($0) } ?? "nothing"
            return [
                LintProblem(
                    code: LintCode.unsupportedSchema.rawValue, pointer: JSONPointer.root.appending("schema"),
                    message:
                        "\"schema\" must be \"parley.flow/1\", \"parley.screen/1\" or \"parley.bundle/1\", found \(found)."
                )
            ]
        }
    }

    /// The document kind named by `schema` (`flow`, `screen`, `bundle`), or `nil`.
    public static func documentKind(of document: JSONValue) -> String? {
        guard let schema = document["schema"]?.stringValue else { return nil }
        for kind in ["flow", "screen", "bundle"] where schema.hasPrefix("parley.\(kind)/") { return kind }
        return nil
    }

    private func run(_ document: JSONValue, _ body: (inout LintWalk) -> Void) -> [LintProblem] {
        var walk = LintWalk(limits: limits)
        body(&walk)
        walk.checkValueBounds(in: document)
        return walk.problems
    }
}
