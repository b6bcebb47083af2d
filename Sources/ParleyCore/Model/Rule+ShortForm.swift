extension Rule {
    /// The short `validation` form expanded to canonical rule objects, plus
    /// every problem found on the way. Shared by the decoder (which throws the
    /// first problem) and the linter (which reports them all), so the two can
    /// never disagree about what the short form means.
    struct ShortFormExpansion {
        /// Each expanded rule object and the pointer of the short-form key it came from.
        var rules: [(pointer: JSONPointer, json: JSONValue)] = []
        /// Problems with the short form itself (not with the expanded rules).
        var errors: [ModelDecodingError] = []
    }

    /// Expands `{"required": true, "minLength": 3, "message": "…"}` (docs/wire-format.md
    /// "Screen") in ``knownKinds`` order, then unknown keys in scalar order,
    /// each rule taking the shared `message`. `false` switches a flag rule off.
    static func expandShortForm(_ object: JSONObject, at pointer: JSONPointer) -> ShortFormExpansion {
        var expansion = ShortFormExpansion()
        var message: JSONValue?
        if let value = object["message"] {
            if case .string = value {
                message = value
            } else {
                expansion.errors.append(
                    .wrongType(
                        pointer.appending("message"), "\"message\" must be a string, found \(value.kindDescription)"))
            }
        }
        let keys = object.keys.filter { !$0.isScalarEqual(to: "message") }
        let known = knownKinds.filter { kind in keys.contains { $0.isScalarEqual(to: kind) } }
        let unknown = keys.filter { key in !knownKinds.contains { $0.isScalarEqual(to: key) } }
        for key in known + unknown {
            guard let value = object[key] else { continue }
            var rule = JSONObject()
            rule["rule"] = .string(key)
            if let message { rule["message"] = message }
            switch (key, value) {
            case ("required", .bool(false)), ("integer", .bool(false)), ("email", .bool(false)), ("date", .bool(false)):
                continue
            case ("required", .bool(true)), ("integer", .bool(true)), ("email", .bool(true)), ("date", .bool(true)):
                break
            case ("required", _), ("integer", _), ("email", _):
                expansion.errors.append(
                    .wrongType(pointer.appending(key), "\"\(key)\" in the short form must be true or false"))
                continue
            case ("date", .object(let bounds)):
                if let min = bounds["min"] { rule["min"] = min }
                if let max = bounds["max"] { rule["max"] = max }
            case ("date", _):
                expansion.errors.append(
                    .wrongType(
                        pointer.appending(key), "\"date\" in the short form must be true, false or {\"min\", \"max\"}"))
                continue
            case ("oneOf", _): rule["values"] = value
            case ("equalsField", _): rule["field"] = value
            case ("requiredIf", _): rule["when"] = value
            default: rule["value"] = value
            }
            expansion.rules.append((pointer.appending(key), .object(rule)))
        }
        return expansion
    }
}
