/// One node of a screen tree (docs/wire-format.md "Screen").
///
/// `validation` and `action` are typed; every other property stays raw JSON in
/// ``properties`` so properties newer than this core survive a round trip.
/// For a node of unknown type everything stays raw, untouched.
///
/// A value type over one shared copy-on-write `Storage`: copying a node (gating copies
/// many) costs one retain instead of one per member, and a mutation copies the members only
/// when another node still shares them.
public struct Node: Sendable, Equatable {
    /// The members, shared between copies until one of them is mutated.
    ///
    /// `@unchecked Sendable` is safe because a `Storage` is never mutated while shared: every
    /// setter goes through ``Node/writable``, which copies it unless `isKnownUniquelyReferenced`
    /// proves this node holds the only reference, and a uniquely held object cannot be seen by
    /// another thread. Shared instances are only read.
    ///
    /// Its variables skip the dynamic exclusivity check for the same reason: a write happens only
    /// while one node holds the storage alone, so no access can overlap another, and the runtime's
    /// check of every read (each node's properties, children and rules, read about forty times a
    /// validated answer) cost ~6.7k instructions an answer and guarded nothing.
    final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var type: ComponentType
        @exclusivity(unchecked) var id: String
        @exclusivity(unchecked) var properties: JSONObject {
            didSet { fieldId = properties["fieldId"]?.stringValue }
        }
        /// `properties["fieldId"]` as a string, kept as `properties` change: every answer's
        /// validation asks every node of its screen (~900 instructions an answer as a lookup).
        @exclusivity(unchecked) private(set) var fieldId: String?
        @exclusivity(unchecked) var validation: [Rule]
        @exclusivity(unchecked) var action: Action?
        @exclusivity(unchecked) var children: [Node]
        @exclusivity(unchecked) var fallback: [Node]
        @exclusivity(unchecked) var visibleWhen: Predicate?
        @exclusivity(unchecked) var unknownMembers: JSONObject

        init(
            type: ComponentType, id: String, properties: JSONObject, validation: [Rule], action: Action?,
            children: [Node], fallback: [Node], visibleWhen: Predicate?, unknownMembers: JSONObject
        ) {
            self.type = type
            self.id = id
            self.properties = properties
            self.fieldId = properties["fieldId"]?.stringValue
            self.validation = validation
            self.action = action
            self.children = children
            self.fallback = fallback
            self.visibleWhen = visibleWhen
            self.unknownMembers = unknownMembers
        }

        func copy() -> Storage {
            Storage(
                type: type, id: id, properties: properties, validation: validation, action: action,
                children: children, fallback: fallback, visibleWhen: visibleWhen, unknownMembers: unknownMembers)
        }
    }

    private var storage: Storage

    /// The storage, copied first when another node shares it.
    private var writable: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }

    /// The component type.
    public var type: ComponentType {
        get { storage.type }
        set { writable.type = newValue }
    }
    /// Stable id, unique in the screen (identity for native diffing).
    public var id: String {
        get { storage.id }
        set { writable.id = newValue }
    }
    /// Properties other than `validation` and `action`.
    public var properties: JSONObject {
        get { storage.properties }
        set { writable.properties = newValue }
    }
    /// Ordered rules for an input (canonical array form).
    public var validation: [Rule] {
        get { storage.validation }
        set { writable.validation = newValue }
    }
    /// The node's action (buttons, cards), if any.
    public var action: Action? {
        get { storage.action }
        set { writable.action = newValue }
    }
    /// Child nodes, in order.
    public var children: [Node] {
        get { storage.children }
        set { writable.children = newValue }
    }
    /// For a node of unknown type only: its members other than `type`, `id`,
    /// `properties`, `children`, `fallback` and `visibleWhen`, kept so that a node newer than
    /// this core re-encodes losslessly (docs/wire-format.md).
    private var unknownMembers: JSONObject { storage.unknownMembers }

    /// A node served instead to cores that lack this node's type or a property it uses.
    public var fallback: Node? {
        get { storage.fallback.first }
        set { writable.fallback = newValue.map { [$0] } ?? [] }
    }

    /// When the node is shown (docs/expressions.md): `nil` always. A member of the node beside
    /// `fallback`, not of its properties. A hidden node hides its subtree; a hidden input is not
    /// validated and its answer is cleared.
    public var visibleWhen: Predicate? {
        get { storage.visibleWhen }
        set { writable.visibleWhen = newValue }
    }

    /// Creates a node.
    public init(
        type: ComponentType, id: String, properties: JSONObject = JSONObject(), validation: [Rule] = [],
        action: Action? = nil, children: [Node] = [], fallback: Node? = nil, visibleWhen: Predicate? = nil
    ) {
        storage = Storage(
            type: type, id: id, properties: properties, validation: validation, action: action, children: children,
            fallback: fallback.map { [$0] } ?? [], visibleWhen: visibleWhen, unknownMembers: JSONObject())
    }

    /// Same members; nodes sharing storage are equal without comparing them.
    public static func == (lhs: Node, rhs: Node) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let (left, right) = (lhs.storage, rhs.storage)
        return left.type == right.type && left.id == right.id && left.properties == right.properties
            && left.validation == right.validation && left.action == right.action && left.children == right.children
            && left.fallback == right.fallback && left.visibleWhen == right.visibleWhen
            && left.unknownMembers == right.unknownMembers
    }

    /// The members this core gives meaning to; others are ignored on known types.
    static let memberNames = ["type", "id", "properties", "children", "fallback", "visibleWhen"]

    /// The input's `fieldId`, if this node has one.
    public var fieldId: String? { storage.fieldId }

    /// Whether the input's answer is sensitive (`"sensitive": true`): the server encrypts it at
    /// rest and cores must not write it to disk or logs.
    public var isSensitive: Bool { properties["sensitive"]?.boolValue == true }

    /// Decodes a node; unknown members are ignored.
    public init(json: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError) {
        let reader = try JSONReader(json, at: pointer, what: "a node")
        let type = ComponentType(name: try reader.string("type"))
        let id = try reader.string("id")
        let propertiesPointer = pointer.appending("properties")
        var raw = JSONObject()
        if let value = reader.value("properties"), !value.isNull {
            guard case .object(let object) = value else {
                throw .wrongType(propertiesPointer, "\"properties\" must be an object, found \(value.kindDescription)")
            }
            raw = object
        }
        var validation: [Rule] = []
        var action: Action?
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
        var unknownMembers = JSONObject()
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
        var fallback: [Node] = []
        if let fallbackValue = reader.value("fallback"), !fallbackValue.isNull {
            fallback = [try Node(json: fallbackValue, at: pointer.appending("fallback"))]
        }
        var visibleWhen: Predicate?
        if let condition = reader.value("visibleWhen"), !condition.isNull {
            visibleWhen = try Predicate(json: condition, at: pointer.appending("visibleWhen"))
        }
        storage = Storage(
            type: type, id: id, properties: raw, validation: validation, action: action, children: decodedChildren,
            fallback: fallback, visibleWhen: visibleWhen, unknownMembers: unknownMembers)
    }

    /// The node's wire JSON (canonical array form for `validation`).
    public var json: JSONValue {
        var object = type.isKnown ? JSONObject() : unknownMembers
        object["type"] = .string(type.name)
        object["id"] = .string(id)
        var props = properties
        if !validation.isEmpty { props["validation"] = .array(validation.map { $0.json }) }
        if let action { props["action"] = action.json }
        object["properties"] = .object(props)
        if !children.isEmpty { object["children"] = .array(children.map { $0.json }) }
        if let fallback { object["fallback"] = fallback.json }
        if let visibleWhen { object["visibleWhen"] = visibleWhen.json }
        return .object(object)
    }
}

extension Node {
    /// Whether the node has a fallback, without copying it (gating's hot path).
    var hasFallback: Bool { !storage.fallback.isEmpty }
}
