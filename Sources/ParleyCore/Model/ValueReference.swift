/// What a predicate reads (docs/expressions.md): an answer (`"field": id`) or a computed
/// value of the flow (`"computed": name`). Field ids and computed names share no namespace, so
/// the member name says which one is meant.
public enum ValueReference: Sendable, Hashable, CustomStringConvertible {
    /// `{"field": id}`: an answer of the path or of this screen.
    case field(String)
    /// `{"computed": name}`: a value the flow declares under `computed`.
    case computed(String)

    /// The wire member that names it: `field` or `computed`.
    public var memberName: String {
        switch self {
        case .field: return "field"
        case .computed: return "computed"
        }
    }

    /// The field id or computed name.
    public var name: String {
        switch self {
        case .field(let name), .computed(let name): return name
        }
    }

    /// The field id, when this reads an answer.
    public var fieldId: String? {
        if case .field(let name) = self { return name }
        return nil
    }

    /// The computed name, when this reads a computed value.
    public var computedName: String? {
        if case .computed(let name) = self { return name }
        return nil
    }

    /// `field:name` or `computed:name`, for messages.
    public var description: String { "\(memberName):\(name)" }

    public static func == (lhs: ValueReference, rhs: ValueReference) -> Bool {
        switch (lhs, rhs) {
        case (.field(let a), .field(let b)), (.computed(let a), .computed(let b)): return a.isScalarEqual(to: b)
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(memberName)
        hasher.combine(ScalarKey(name))
    }

    /// Reads the subject of a comparison: exactly one of `field` and `computed`, a string.
    init(subjectOf reader: JSONReader, what: String) throws(ModelDecodingError) {
        let hasField = reader.value("field") != nil
        let hasComputed = reader.value("computed") != nil
        guard hasField != hasComputed else {
            throw .invalidValue(reader.pointer, "\(what) reads exactly one of \"field\" and \"computed\"")
        }
        self = hasField ? .field(try reader.string("field")) : .computed(try reader.string("computed"))
    }

    /// Writes the subject into an object.
    func write(into object: inout JSONObject) {
        object[memberName] = .string(name)
    }
}
