/// One entry of a flow's `"computed": {"name": expression, …}` (docs/expressions.md): a
/// named value other expressions, predicates and templates read with `{"computed": name}`.
/// Names share no namespace with field ids.
public struct ComputedValue: Sendable, Equatable {
    /// The name, unique in the flow.
    public var name: String
    /// How the value is computed.
    public var expression: Expression

    /// Creates a computed value.
    public init(name: String, expression: Expression) {
        self.name = name
        self.expression = expression
    }

    public static func == (lhs: ComputedValue, rhs: ComputedValue) -> Bool {
        lhs.name.isScalarEqual(to: rhs.name) && lhs.expression == rhs.expression
    }

    /// Decodes a flow's `computed` object, in the scalar order of the names (the JSON object's
    /// order: members are kept sorted, so the wire form is canonical).
    public static func decodeList(
        _ value: JSONValue, at pointer: JSONPointer
    ) throws(ModelDecodingError) -> [ComputedValue] {
        guard case .object(let object) = value else {
            throw .wrongType(
                pointer, "\"computed\" must be an object of named expressions, found \(value.kindDescription)")
        }
        var result: [ComputedValue] = []
        for member in object {
            result.append(
                ComputedValue(
                    name: member.key, expression: try Expression(json: member.value, at: pointer.appending(member.key)))
            )
        }
        return result
    }

    /// The `computed` object of a flow.
    public static func json(_ values: [ComputedValue]) -> JSONValue {
        var object = JSONObject()
        for value in values { object[value.name] = value.expression.json }
        return .object(object)
    }
}
