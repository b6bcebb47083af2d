/// One pass of the linter over a raw document: it never stops at the first
/// problem, so every check records and moves on.
///
/// Recursion is bounded by ``DocumentLimits`` (node depth, predicate depth,
/// fallback chains) and the string scan is iterative, so even a hostile,
/// arbitrarily deep ``JSONValue`` cannot exhaust the stack.
struct LintWalk {
    /// Where a `fieldId` is declared.
    struct FieldDeclaration {
        var name: String
        var pointer: JSONPointer
    }

    /// A place that names a field (`include`, `equalsField`, a predicate).
    struct FieldReference {
        var name: String
        var pointer: JSONPointer
        var what: String
        /// The index of the flow step the reference is on; `nil` outside a step (upgrade screen, screen document).
        var step: Int?
        /// Whether the rule reads the field's answer on the session's path (`equalsField`,
        /// predicates), so the field must be answered on every path to the step (docs/sessions.md).
        var readsPath: Bool
    }

    let limits: DocumentLimits
    private(set) var problems: [LintProblem] = []
    /// Node ids of the screen being walked, with where each first appeared.
    var nodeIds: [ScalarKey: JSONPointer] = [:]
    /// Nodes seen in the screen being walked.
    var nodeCount = 0
    /// Field references of the flow (or standalone screen) being walked.
    var fieldReferences: [FieldReference] = []
    /// The index of the flow step being walked, if any; recorded with each field reference.
    var currentStep: Int?

    init(limits: DocumentLimits) { self.limits = limits }

    mutating func report(_ code: LintCode, _ pointer: JSONPointer, _ message: String) {
        if problems.count < limits.maximumProblems {
            problems.append(LintProblem(code, pointer: pointer, message: message))
        } else if problems.count == limits.maximumProblems {
            problems.append(
                LintProblem(
                    .limitExceeded, pointer: .root,
                    message:
                        "More than \(limits.maximumProblems) problems; only the first are listed (maximumProblems)."))
        }
    }

    /// The value as an object, or a `wrongType` problem.
    mutating func object(_ value: JSONValue, at pointer: JSONPointer, what: String) -> JSONObject? {
        guard case .object(let object) = value else {
            report(.wrongType, pointer, "\(what) must be an object, found \(value.kindDescription).")
            return nil
        }
        return object
    }

    /// A required string member.
    mutating func string(
        _ object: JSONObject, _ key: String, at pointer: JSONPointer, code: LintCode? = nil, why: String = ""
    ) -> String? {
        guard let value = object[key] else {
            report(code ?? .missingMember, pointer.appending(key), "\"\(key)\" is required\(why).")
            return nil
        }
        return string(value, key: key, at: pointer.appending(key), code: code)
    }

    /// An optional string member; absent or `null` gives `nil` without a problem.
    mutating func optionalString(
        _ object: JSONObject, _ key: String, at pointer: JSONPointer, code: LintCode? = nil
    ) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        return string(value, key: key, at: pointer.appending(key), code: code)
    }

    private mutating func string(_ value: JSONValue, key: String, at pointer: JSONPointer, code: LintCode?) -> String? {
        guard case .string(let text) = value else {
            report(code ?? .wrongType, pointer, "\"\(key)\" must be a string, found \(value.kindDescription).")
            return nil
        }
        return text
    }

    /// A required identifier: a non-empty string within ``DocumentLimits/maximumIdentifierLength``.
    mutating func identifier(_ object: JSONObject, _ key: String, at pointer: JSONPointer, what: String) -> String? {
        guard let text = string(object, key, at: pointer, why: "; every \(what) needs one") else { return nil }
        checkIdentifier(text, key: key, at: pointer.appending(key))
        return text
    }

    /// Non-empty and not too long.
    mutating func checkIdentifier(_ text: String, key: String, at pointer: JSONPointer) {
        if text.isEmpty {
            report(.invalidValue, pointer, "\"\(key)\" must not be empty.")
        } else if text.unicodeScalars.count > limits.maximumIdentifierLength {
            report(
                .limitExceeded, pointer,
                "\"\(key)\" is longer than \(limits.maximumIdentifierLength) characters (maximumIdentifierLength).")
        }
    }

    /// An array member; absent or `null` gives `nil`, reported as missing only when `required`.
    mutating func array(
        _ object: JSONObject, _ key: String, at pointer: JSONPointer, required: Bool, code: LintCode? = nil
    ) -> [JSONValue]? {
        guard let value = object[key], !(value.isNull && !required) else {
            if required { report(code ?? .missingMember, pointer.appending(key), "\"\(key)\" is required.") }
            return nil
        }
        guard case .array(let elements) = value else {
            report(
                code ?? .wrongType, pointer.appending(key),
                "\"\(key)\" must be an array, found \(value.kindDescription).")
            return nil
        }
        return elements
    }

    /// The string elements of an array; every other element is reported.
    mutating func strings(_ elements: [JSONValue], at pointer: JSONPointer, code: LintCode? = nil) -> [String] {
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            if case .string(let text) = element {
                result.append(text)
            } else {
                report(
                    code ?? .wrongType, pointer.appending(index),
                    "Each entry must be a string, found \(element.kindDescription).")
            }
        }
        return result
    }

    /// Reports `limitExceeded` when `count` is over `limit`; returns whether it was within.
    @discardableResult
    mutating func within(_ count: Int, _ limit: Int, name: String, at pointer: JSONPointer, what: String) -> Bool {
        guard count > limit else { return true }
        report(.limitExceeded, pointer, "\(what): \(count) is more than the limit of \(limit) (\(name)).")
        return false
    }

    /// Checks a `schema` member (docs/wire-format.md) with the decoder's own rule.
    mutating func checkSchema(_ object: JSONObject, expected: String, at pointer: JSONPointer) {
        do {
            _ = try SchemaVersion.check(object["schema"], expected: expected, at: pointer.appending("schema"))
        } catch {
            report(.unsupportedSchema, error.pointer, error.message + ".")
        }
    }

    /// Records a field reference, checked once the whole flow's fields are known. `readsPath`
    /// is false for `include`, which names fields to send rather than answers a rule reads.
    mutating func reference(_ name: String, at pointer: JSONPointer, what: String, readsPath: Bool = true) {
        fieldReferences.append(
            FieldReference(name: name, pointer: pointer, what: what, step: currentStep, readsPath: readsPath))
    }
}
