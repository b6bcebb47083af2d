/// A flow: ordered steps with data-only transitions (docs/wire-format.md "Flow").
public struct Flow: Sendable, Equatable {
    /// Flow id, stable across versions.
    public var id: String
    /// Human title.
    public var title: String?
    /// The id of the first step.
    public var start: String
    /// The steps, in document order.
    public var steps: [Step]
    /// Screen for cores that cannot render a step (gating rule 4).
    public var upgrade: Screen?
    /// The flow's locales and translations (docs/localization.md); the model's strings are
    /// the default locale's. Nil for a flow in one language.
    public var localization: FlowLocalization?
    /// Named values computed from answers (docs/expressions.md), in the scalar order of
    /// their names; empty when the flow declares none.
    public var computed: [ComputedValue] {
        get { computedGraph.values }
        set { computedGraph = ComputedGraph(newValue) }
    }
    /// The computed values' dependency graph and evaluation order, built once when they are set
    /// (a flow version is immutable): every answer evaluates them, and rebuilding the graph each
    /// time was a fifth of what expressions added to an answer's cost (issue 25).
    private(set) var computedGraph = ComputedGraph([])
    /// How long the server keeps an ended session of this flow (README "Retention"); nil: the
    /// server's default.
    public var retention: RetentionPeriod?

    /// Creates a flow.
    public init(
        id: String, title: String? = nil, start: String, steps: [Step], upgrade: Screen? = nil,
        computed: [ComputedValue] = []
    ) {
        computedGraph = ComputedGraph(computed)
        self.id = id
        self.title = title
        self.start = start
        self.steps = steps
        self.upgrade = upgrade
    }

    /// The computed value with the given name (scalar-exact), if any.
    public func computedValue(_ name: String) -> ComputedValue? {
        computed.first { $0.name.isScalarEqual(to: name) }
    }

    /// The step with the given id (scalar-exact), if any.
    public func step(_ id: String) -> Step? {
        steps.first { $0.id.isScalarEqual(to: id) }
    }
}

extension Flow: ParleyDocument {
    /// Decodes a flow document (`schema` required).
    public init(json document: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError) {
        // Localized strings are set aside: the model reads the default locale's document.
        let (json, localization) = FlowLocalization.extract(from: document)
        self.localization = localization
        let reader = try JSONReader(json, at: pointer, what: "a flow")
        _ = try SchemaVersion.check(reader.value("schema"), expected: "flow", at: pointer.appending("schema"))
        id = try reader.string("id")
        title = try reader.optionalString("title")
        start = try reader.string("start")
        var decoded: [Step] = []
        for (index, element) in try reader.array("steps").enumerated() {
            decoded.append(try Step(json: element, at: pointer.appending("steps").appending(index)))
        }
        steps = decoded
        if let text = try reader.optionalString("retention") {
            guard let period = RetentionPeriod(text) else {
                throw .invalidValue(
                    pointer.appending("retention"), "\"retention\" must be an ISO 8601 duration such as \"P90D\"")
            }
            retention = period
        } else {
            retention = nil
        }
        if let value = reader.value("computed"), !value.isNull {
            computedGraph = ComputedGraph(try ComputedValue.decodeList(value, at: pointer.appending("computed")))
        }
        if let value = reader.value("upgrade"), !value.isNull {
            upgrade = try Screen(json: value, at: pointer.appending("upgrade"), requireSchema: false)
        } else {
            upgrade = nil
        }
    }

    /// The wire JSON.
    public var json: JSONValue {
        var object = JSONObject()
        object["schema"] = .string(SchemaVersion.flow.description)
        object["id"] = .string(id)
        if let title { object["title"] = .string(title) }
        object["start"] = .string(start)
        object["steps"] = .array(steps.map { $0.json })
        if let upgrade { object["upgrade"] = upgrade.json }
        if let retention { object["retention"] = .string(retention.description) }
        if !computed.isEmpty { object["computed"] = ComputedValue.json(computed) }
        guard let localization else { return .object(object) }
        return localization.applied(to: .object(object))
    }

    /// The flow's locales, the default first; empty for a flow in one language.
    public var locales: [String] { localization?.locales ?? [] }

    /// The same flow with every translated string in `locale` (the default's where a string has
    /// no translation), and no translations left: what cores receive. `self` when the flow has
    /// no translations.
    public func localized(to locale: String) -> Flow {
        guard let localization else { return self }
        var plain = self
        plain.localization = nil
        let document = localization.resolved(plain.json, to: locale)
        guard var flow = try? Flow(json: document, at: .root) else { return plain }
        flow.localization = nil
        return flow
    }
}
