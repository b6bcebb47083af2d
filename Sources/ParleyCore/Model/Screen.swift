/// A screen: a titled tree of nodes (docs/wire-format.md "Screen").
public struct Screen: Sendable, Equatable {
    /// Stable screen id.
    public var id: String
    /// Optional title.
    public var title: String?
    /// The root node.
    public var root: Node {
        didSet {
            fieldIdList = Self.fieldIdList(of: root)
            hasVisibilityConditions = ScreenVisibility.hasConditions(root)
        }
    }
    /// Every field the screen declares, fallbacks' fields included, in document order (a field
    /// declared twice is listed twice). Kept with the screen, written again whenever `root`
    /// changes: every answer's evaluation reads it (``Answers/onPath(_:context:screen:)``), and
    /// walking the tree for it each time cost ~2k instructions an answer.
    private(set) var fieldIdList: [String]
    /// Whether any node of the tree has a `visibleWhen`, kept like ``fieldIdList``: a screen
    /// without one hides nothing, and ``ScreenVisibility/resolve(_:evaluator:)`` walked every
    /// node of it on every answer to find that out.
    private(set) var hasVisibilityConditions: Bool

    /// Creates a screen.
    public init(id: String, title: String? = nil, root: Node) {
        self.id = id
        self.title = title
        self.root = root
        fieldIdList = Self.fieldIdList(of: root)
        hasVisibilityConditions = ScreenVisibility.hasConditions(root)
    }

    /// Decodes a screen. A top-level document must carry `schema`; a screen
    /// nested in a flow may omit it, but if present it must be understood.
    public init(json: JSONValue, at pointer: JSONPointer, requireSchema: Bool) throws(ModelDecodingError) {
        let reader = try JSONReader(json, at: pointer, what: "a screen")
        if requireSchema || reader.value("schema") != nil {
            _ = try SchemaVersion.check(reader.value("schema"), expected: "screen", at: pointer.appending("schema"))
        }
        id = try reader.string("id")
        title = try reader.optionalString("title")
        guard let rootValue = reader.value("root") else {
            throw .missing(pointer.appending("root"), "\"root\" is required")
        }
        root = try Node(json: rootValue, at: pointer.appending("root"))
        fieldIdList = Self.fieldIdList(of: root)
        hasVisibilityConditions = ScreenVisibility.hasConditions(root)
    }

    /// Every node of the screen in document order (depth first, node before
    /// its children; fallbacks are not included).
    public var nodes: [Node] {
        var result: [Node] = []
        func visit(_ node: Node) {
            result.append(node)
            node.children.forEach(visit)
        }
        visit(root)
        return result
    }

    /// The input nodes in document order.
    public var inputs: [Node] { nodes.filter { $0.fieldId != nil } }
}

extension Screen: ParleyDocument {
    /// Decodes a top-level screen document (`schema` required).
    public init(json: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError) {
        try self.init(json: json, at: pointer, requireSchema: true)
    }

    /// The screen's wire JSON, always with its `schema`.
    public var json: JSONValue {
        var object = JSONObject()
        object["schema"] = .string(SchemaVersion.screen.description)
        object["id"] = .string(id)
        if let title { object["title"] = .string(title) }
        object["root"] = root.json
        return .object(object)
    }
}
