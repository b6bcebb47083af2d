/// One entry of a step's `next` list: go to `goto` when `when` holds (or always).
public struct Transition: Sendable, Equatable {
    /// Condition over the answers; `nil` always matches.
    public var when: Predicate?
    /// The id of the step to go to.
    public var goto: String

    /// Creates a transition.
    public init(when: Predicate? = nil, goto: String) {
        self.when = when
        self.goto = goto
    }

    /// Decodes a transition.
    public init(json: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError) {
        let reader = try JSONReader(json, at: pointer, what: "a transition")
        goto = try reader.string("goto")
        if let value = reader.value("when"), !value.isNull {
            when = try Predicate(json: value, at: pointer.appending("when"))
        } else {
            when = nil
        }
    }

    /// The wire JSON.
    public var json: JSONValue {
        var object = JSONObject()
        object["goto"] = .string(goto)
        if let when { object["when"] = when.json }
        return .object(object)
    }
}
