/// Reads a rule's parameters for the linter. In the short `validation` form a
/// parameter is the value of the rule's own key, so its pointer is the key's.
struct RuleParameters {
    let rule: JSONObject
    let pointer: JSONPointer
    let shortForm: Bool
    let kind: String

    /// Where the parameter `key` sits in the document.
    func pointer(for key: String) -> JSONPointer {
        shortForm ? pointer : pointer.appending(key)
    }

    /// A required parameter's raw value (possibly `null`), or `nil` after reporting it missing.
    func value(_ key: String, in walk: inout LintWalk) -> JSONValue? {
        guard let value = rule[key] else {
            walk.report(.invalidRuleParameter, pointer(for: key), "\(kind) needs \"\(key)\".")
            return nil
        }
        return value
    }

    /// A required decimal parameter: a JSON number, or a string in the number grammar of docs/rules.md.
    func number(_ key: String, in walk: inout LintWalk) -> JSONNumber? {
        guard let value = value(key, in: &walk) else { return nil }
        switch value {
        case .number(let number):
            return number
        case .string(let text):
            if let number = JSONNumber(parsing: text) { return number }
        default:
            break
        }
        walk.report(.invalidRuleParameter, pointer(for: key), "\(kind) needs a decimal number as \"\(key)\".")
        return nil
    }
}
