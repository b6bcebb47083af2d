/// Where a flow document may hold a person-readable string that may be localized
/// (docs/localization.md): the flow's `title`; each screen's `title` (steps' and the
/// upgrade screen's); each node's `text`, `title`, `subtitle`, `label`, `placeholder` and
/// `alt` properties, its validation rules' `message`s, and the same within its children and
/// fallback. Option values, field ids and everything else are never localized.
enum LocalizablePositions {
    /// The node properties a person reads.
    static let nodeProperties = ["text", "title", "subtitle", "label", "placeholder", "alt"]

    /// Rebuilds `flow` with `transform` applied to the value at every localizable position that is
    /// present; everything else is kept as it is.
    static func map(flow: JSONValue, _ transform: (JSONPointer, JSONValue) -> JSONValue) -> JSONValue {
        guard case .object(var object) = flow else { return flow }
        if let title = object["title"] { object["title"] = transform(JSONPointer.root.appending("title"), title) }
        if case .array(var steps)? = object["steps"] {
            for index in steps.indices {
                guard case .object(var step) = steps[index], let screen = step["screen"] else { continue }
                step["screen"] = map(
                    screen: screen, at: JSONPointer.root.appending("steps").appending(index).appending("screen"),
                    transform)
                steps[index] = .object(step)
            }
            object["steps"] = .array(steps)
        }
        if let upgrade = object["upgrade"] {
            object["upgrade"] = map(screen: upgrade, at: JSONPointer.root.appending("upgrade"), transform)
        }
        return .object(object)
    }

    private static func map(
        screen: JSONValue, at pointer: JSONPointer, _ transform: (JSONPointer, JSONValue) -> JSONValue
    ) -> JSONValue {
        guard case .object(var object) = screen else { return screen }
        if let title = object["title"] { object["title"] = transform(pointer.appending("title"), title) }
        if let root = object["root"] { object["root"] = map(node: root, at: pointer.appending("root"), transform) }
        return .object(object)
    }

    private static func map(
        node: JSONValue, at pointer: JSONPointer, _ transform: (JSONPointer, JSONValue) -> JSONValue
    ) -> JSONValue {
        guard case .object(var object) = node else { return node }
        if case .object(var properties)? = object["properties"] {
            let propertiesPointer = pointer.appending("properties")
            for key in nodeProperties {
                if let value = properties[key] { properties[key] = transform(propertiesPointer.appending(key), value) }
            }
            if case .array(var rules)? = properties["validation"] {
                for index in rules.indices {
                    guard case .object(var rule) = rules[index], let message = rule["message"] else { continue }
                    rule["message"] = transform(
                        propertiesPointer.appending("validation").appending(index).appending("message"), message)
                    rules[index] = .object(rule)
                }
                properties["validation"] = .array(rules)
            }
            object["properties"] = .object(properties)
        }
        if case .array(var children)? = object["children"] {
            for index in children.indices {
                children[index] = map(
                    node: children[index], at: pointer.appending("children").appending(index), transform)
            }
            object["children"] = .array(children)
        }
        if let fallback = object["fallback"] {
            object["fallback"] = map(node: fallback, at: pointer.appending("fallback"), transform)
        }
        return .object(object)
    }
}
