/// One node of a screen tree (DESIGN.md "Screen").
///
/// `validation` and `action` are typed; every other property stays raw JSON in
/// ``properties`` so properties newer than this core survive a round trip.
/// For a node of unknown type everything stays raw, untouched.
public struct Node: Sendable, Equatable {
    /// The component type.
    public var type: ComponentType
    /// Stable id, unique in the screen (identity for native diffing).
    public var id: String
    /// Properties other than `validation` and `action`.
    public var properties: JSONObject
    /// Ordered rules for an input (canonical array form).
    public var validation: [Rule]
    /// The node's action (buttons, cards), if any.
    public var action: Action?
    /// Child nodes, in order.
    public var children: [Node]
    private var fallbackStorage: [Node]
    /// For a node of unknown type only: its members other than `type`, `id`,
    /// `properties`, `children` and `fallback`, kept so that a node newer than
    /// this core re-encodes losslessly (DESIGN.md "Wire format").
    private var unknownMembers = JSONObject()

    /// A node served instead to cores that lack this node's type or a property it uses.
    public var fallback: Node? {
        get { fallbackStorage.first }
        set { fallbackStorage = newValue.map { [$0] } ?? [] }
    }

    /// Creates a node.
    public init(
        type: ComponentType, id: String, properties: JSONObject = JSONObject(), validation: [Rule] = [],
        action: Action? = nil, children: [Node] = [], fallback: Node? = nil
    ) {
        self.type = type
        self.id = id
        self.properties = properties
        self.validation = validation
        self.action = action
        self.children = children
        self.fallbackStorage = fallback.map { [$0] } ?? []
    }

    /// The members this core gives meaning to; others are ignored on known types.
    static let memberNames = ["type", "id", "properties", "children", "fallback"]

    /// The input's `fieldId`, if this node has one.
    public var fieldId: String? { properties["fieldId"]?.stringValue }

    /// Whether the input's answer is sensitive (`"sensitive": true`): the server encrypts it at
    /// rest and cores must not write it to disk or logs.
    public var isSensitive: Bool { properties["sensitive"]?.boolValue == true }

    /// Decodes a node; unknown members are ignored.
    public init(json: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError) {
        let reader = try JSONReader(json, at: pointer, what: "a node")
        type = ComponentType(name: try reader.string("type"))
        id = try reader.string("id")
        let propertiesPointer = pointer.appending("properties")
        var raw = JSONObject()
        if let value = reader.value("properties"), !value.isNull {
            guard case .object(let object) = value else {
                throw .wrongType(propertiesPointer, "\"properties\" must be an object, found \(value.kindDescription)")
            }
            raw = object
        }
        validation = []
        action = nil
        if type.isKnown {
            if let rules = raw["validation"] {
                validation = try Rule.decodeList(rules, at: propertiesPointer.appending("validation"))
                raw["validation"] = nil
            }
            if let actionValue = raw["action"], !actionValue.isNull {
                action = try Action(json: actionValue, at: propertiesPointer.appending("action"))
                raw["action"] = nil
            }
        }
        properties = raw
        if !type.isKnown {
            var extra = reader.object
            for key in Self.memberNames { extra[key] = nil }
            unknownMembers = extra
        }
        var decodedChildren: [Node] = []
        if let elements = try reader.optionalArray("children") {
            for (index, element) in elements.enumerated() {
                decodedChildren.append(try Node(json: element, at: pointer.appending("children").appending(index)))
            }
        }
        children = decodedChildren
        fallbackStorage = []
        if let fallbackValue = reader.value("fallback"), !fallbackValue.isNull {
            fallbackStorage = [try Node(json: fallbackValue, at: pointer.appending("fallback"))]
        }
    }

    /// The node's wire JSON (canonical array form for `validation`).
    public var json: JSONValue {
        var object = type.isKnown ? JSONObject() : unknownMembers
        object["type"] = .string(type.name)
        object["id"] = .string(id)
        var props = properties
        if !validation.isEmpty { props["validation"] = .array(validation.map(\.json)) }
        if let action { props["action"] = action.json }
        object["properties"] = .object(props)
        if !children.isEmpty { object["children"] = .array(children.map(\.json)) }
        if let fallback { object["fallback"] = fallback.json }
        return .object(object)
    }
}

extension Node {
    /// Whether the node has a fallback, without copying it (gating's hot path).
    var hasFallback: Bool { !fallbackStorage.isEmpty }
}
