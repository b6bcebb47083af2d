/// The stable codes a ``LintProblem`` carries (see the table on ``FlowLinter``).
///
/// Codes are part of the public contract (CI scripts and the HTTP lint
/// endpoint match on them): add new ones, never rename or repurpose one.
public enum LintCode: String, Sendable, CaseIterable, CustomStringConvertible {
    /// `schema` is missing, malformed, of another document kind or of an unknown major version.
    case unsupportedSchema
    /// A required member is absent (e.g. a node's `id`, an input's `fieldId`, a button's `action`).
    case missingMember
    /// A member has the wrong JSON type (e.g. a number where a string is expected).
    case wrongType
    /// A member has the right type but an unacceptable value (e.g. an empty id).
    case invalidValue
    /// A documented `DocumentLimits` bound is exceeded (depth, counts, string sizes).
    case limitExceeded
    /// A node's `type` is not in the component vocabulary.
    case unknownComponentType
    /// An action's `type` is not submit, openUrl, subscribe or network.
    case unknownActionType
    /// A validation rule's `rule` is not a kind the interpreter knows.
    case unknownRuleKind
    /// Two nodes of one screen (fallbacks included) share an `id`.
    case duplicateNodeId
    /// Two inputs of one flow share a `fieldId` (a node and its fallbacks count once).
    case duplicateFieldId
    /// Two steps of one flow share an `id`.
    case duplicateStepId
    /// Two flows of one bundle share an `id`.
    case duplicateFlowId
    /// An input's `options` list repeats a value.
    case duplicateOption
    /// A fallback does not carry its node's `fieldId`, or introduces a field its node lacks.
    case fallbackFieldMismatch
    /// A node whose type is not a container has `children`.
    case childrenNotAllowed
    /// A node has `validation` rules but no `fieldId` to apply them to.
    case validationWithoutField
    /// `start` or a `goto` names no step of the flow.
    case unknownStep
    /// No path of `goto`s from `start` reaches the step.
    case unreachableStep
    /// `include`, `equalsField` or a predicate names a field the flow does not have.
    case unknownField
    /// A network request's `method` is not GET, POST, PUT, PATCH or DELETE.
    case invalidNetworkMethod
    /// A network request's `path` is not relative (scheme, host, `//`, leading `/`, `.`/`..`).
    case invalidNetworkPath
    /// A network request carries `headers`; the client injects auth itself.
    case networkHeadersNotAllowed
    /// An openUrl action's `url` is not an absolute `https://` URL.
    case openUrlNotHttps
    /// A rule's parameter is missing, ill-typed or out of range.
    case invalidRuleParameter
    /// A pattern rule's `value` is not an acceptable I-Regexp (RFC 9485, docs/rules.md).
    case invalidPattern
    /// A predicate does not have exactly one operator (equals, in, present, all, any, not).
    case invalidPredicate
    /// A supported core cannot render a step and the flow has no `upgrade` screen.
    case unservableStep
    /// A supported core cannot render the flow's `upgrade` screen.
    case unservableUpgradeScreen
    /// A `locales` entry is not a well-formed BCP 47 language tag.
    case invalidLocaleTag
    /// A localized string names a locale the flow does not declare (or the flow declares no `locales`).
    case undeclaredLocale
    /// A localized string lacks one of the flow's declared locales.
    case missingLocale
    /// `equalsField` or a predicate names a field of a step that is not on every path from `start` to it.
    case fieldNotOnEveryPath

    /// One line saying what the code means (the README's table is generated from these).
    public var summary: String {
        switch self {
        case .unsupportedSchema:
            return "`schema` is missing, malformed, of another document kind or of an unknown major version."
        case .missingMember:
            return "A required member is absent (e.g. a node's `id`, an input's `fieldId`, a button's `action`)."
        case .wrongType: return "A member has the wrong JSON type (e.g. a number where a string is expected)."
        case .invalidValue: return "A member has the right type but an unacceptable value (e.g. an empty id)."
        case .limitExceeded: return "A documented `DocumentLimits` bound is exceeded (depth, counts, string sizes)."
        case .unknownComponentType: return "A node's `type` is not in the component vocabulary."
        case .unknownActionType: return "An action's `type` is not submit, openUrl, subscribe or network."
        case .unknownRuleKind: return "A validation rule's `rule` is not a kind the interpreter knows."
        case .duplicateNodeId: return "Two nodes of one screen (fallbacks included) share an `id`."
        case .duplicateFieldId: return "Two inputs of one flow share a `fieldId` (a node and its fallbacks count once)."
        case .duplicateStepId: return "Two steps of one flow share an `id`."
        case .duplicateFlowId: return "Two flows of one bundle share an `id`."
        case .duplicateOption: return "An input's `options` list repeats a value."
        case .fallbackFieldMismatch:
            return "A fallback does not carry its node's `fieldId`, or introduces a field its node lacks."
        case .childrenNotAllowed: return "A node whose type is not a container has `children`."
        case .validationWithoutField: return "A node has `validation` rules but no `fieldId` to apply them to."
        case .unknownStep: return "`start` or a `goto` names no step of the flow."
        case .unreachableStep: return "No path of `goto`s from `start` reaches the step."
        case .unknownField: return "`include`, `equalsField` or a predicate names a field the flow does not have."
        case .invalidNetworkMethod: return "A network request's `method` is not GET, POST, PUT, PATCH or DELETE."
        case .invalidNetworkPath:
            return "A network request's `path` is not relative (scheme, host, `//`, leading `/`, `.`/`..`)."
        case .networkHeadersNotAllowed: return "A network request carries `headers`; the client injects auth itself."
        case .openUrlNotHttps: return "An openUrl action's `url` is not an absolute `https://` URL."
        case .invalidRuleParameter: return "A rule's parameter is missing, ill-typed or out of range."
        case .invalidPattern: return "A pattern rule's `value` is not an acceptable I-Regexp (RFC 9485, docs/rules.md)."
        case .invalidPredicate:
            return "A predicate does not have exactly one operator (equals, in, present, all, any, not)."
        case .unservableStep: return "A supported core cannot render a step and the flow has no `upgrade` screen."
        case .unservableUpgradeScreen: return "A supported core cannot render the flow's `upgrade` screen."
        case .invalidLocaleTag: return "A `locales` entry is not a well-formed BCP 47 language tag."
        case .undeclaredLocale:
            return "A localized string names a locale the flow does not declare (or the flow declares no `locales`)."
        case .missingLocale: return "A localized string lacks one of the flow's declared locales."
        case .fieldNotOnEveryPath:
            return "`equalsField` or a predicate names a field of a step that is not on every path from `start` to it."
        }
    }

    public var description: String { rawValue }
}
