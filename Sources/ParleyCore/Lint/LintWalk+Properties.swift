extension LintWalk {
    /// Properties whose value is text or a layout token (docs/wire-format.md "Component vocabulary").
    static let stringProperties = [
        "text", "style", "title", "subtitle", "label", "placeholder", "url", "imageUrl", "alt", "spacing", "alignment",
    ]

    /// The typed properties of a node of known type.
    mutating func lintProperties(_ properties: JSONObject, type: ComponentType, hasField: Bool, at pointer: JSONPointer)
    {
        for key in Self.stringProperties {
            _ = optionalString(properties, key, at: pointer)
        }
        if let validation = properties["validation"] {
            let count = lintValidation(validation, at: pointer.appending("validation"))
            if count > 0 && !hasField {
                report(
                    .validationWithoutField, pointer.appending("validation"),
                    "Validation rules need a \"fieldId\" on the same node to check an answer.")
            }
        }
        if let action = properties["action"], !action.isNull {
            lintAction(action, at: pointer.appending("action"), fallbacks: 0)
        } else if type == .button {
            report(.missingMember, pointer.appending("action"), "\"action\" is required; a button must do something.")
        }
        if type == .picker || type == .quickReplies {
            lintOptions(properties, at: pointer)
        }
        if let size = properties["size"] {
            lintSize(size, at: pointer.appending("size"))
        }
        if let sensitive = properties["sensitive"] {
            if sensitive.boolValue == nil {
                report(
                    .wrongType, pointer.appending("sensitive"),
                    "\"sensitive\" must be true or false, found \(sensitive.kindDescription).")
            } else if !hasField {
                report(
                    .invalidValue, pointer.appending("sensitive"),
                    "\"sensitive\" marks an input's answer; this node has no \"fieldId\".")
            }
        }
    }

    /// `options`: a non-empty array of distinct strings (the submitted value is the string).
    private mutating func lintOptions(_ properties: JSONObject, at pointer: JSONPointer) {
        let optionsPointer = pointer.appending("options")
        guard let options = array(properties, "options", at: pointer, required: true) else { return }
        if options.isEmpty {
            report(.invalidValue, optionsPointer, "\"options\" must offer at least one choice.")
        }
        within(
            options.count, limits.maximumOptionsPerInput, name: "maximumOptionsPerInput", at: optionsPointer,
            what: "Options")
        var seen: Set<ScalarKey> = []
        for (index, option) in options.enumerated() {
            guard case .string(let text) = option else {
                report(
                    .wrongType, optionsPointer.appending(index),
                    "Each option must be a string, found \(option.kindDescription).")
                continue
            }
            if !seen.insert(ScalarKey(text)).inserted {
                report(
                    .duplicateOption, optionsPointer.appending(index),
                    "The option \(Self.quoted(text)) is listed more than once.")
            }
        }
    }

    /// A child's `size`: `hug`, `fill` or `{"weight": n}` with n > 0 (docs/wire-format.md "Screen").
    private mutating func lintSize(_ size: JSONValue, at pointer: JSONPointer) {
        switch size {
        case .string(let token) where token.isScalarEqual(to: "hug") || token.isScalarEqual(to: "fill"):
            return
        case .object(let object):
            if let weight = object["weight"]?.numberValue, !weight.isNegative, !weight.isZero { return }
        default:
            break
        }
        report(.invalidValue, pointer, "\"size\" must be \"hug\", \"fill\" or {\"weight\": n} with n greater than 0.")
    }
}
