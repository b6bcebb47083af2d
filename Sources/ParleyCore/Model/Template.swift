/// A text that recalls answers (docs/expressions.md): `{"template": [part…], "fallback"?: "…"}`,
/// allowed wherever a person-readable, localizable property is (``Template/textProperties``). A
/// part is a string or an expression; the text is the parts concatenated. The `fallback` is what
/// a core without the `template` capability shows.
///
/// Templates stay raw JSON in ``Node/properties`` (so a property newer than this core still
/// round-trips); ``Node/template(_:)`` decodes one on demand.
public struct Template: Sendable, Equatable {
    /// One piece of the text.
    public enum Part: Sendable, Equatable {
        /// Text shown as written (in a localized flow, the locale's string).
        case text(String)
        /// A value recalled from answers or computed values; empty adds nothing.
        case expression(Expression)

        public static func == (lhs: Part, rhs: Part) -> Bool {
            switch (lhs, rhs) {
            case (.text(let a), .text(let b)): return a.isScalarEqual(to: b)
            case (.expression(let a), .expression(let b)): return a == b
            default: return false
            }
        }
    }

    /// The parts, in order.
    public var parts: [Part]
    /// Served instead to a core without the `template` capability; `nil` when there is none.
    public var fallback: String?

    /// The node properties a template may stand in (those a person reads: docs/localization.md).
    public static let textProperties = LocalizablePositions.nodeProperties

    /// Creates a template.
    public init(parts: [Part], fallback: String? = nil) {
        self.parts = parts
        self.fallback = fallback
    }

    public static func == (lhs: Template, rhs: Template) -> Bool {
        guard lhs.parts == rhs.parts else { return false }
        switch (lhs.fallback, rhs.fallback) {
        case (nil, nil): return true
        case (let a?, let b?): return a.isScalarEqual(to: b)
        default: return false
        }
    }

    /// Whether a property value has the template shape: an object with a `template` member.
    public static func isTemplate(_ value: JSONValue) -> Bool {
        if case .object(let object) = value { return object.contains("template") }
        return false
    }

    /// Decodes a template.
    public init(json: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError) {
        let reader = try JSONReader(json, at: pointer, what: "a template")
        var decoded: [Part] = []
        for (index, element) in try reader.array("template").enumerated() {
            let partPointer = pointer.appending("template").appending(index)
            switch element {
            case .string(let text): decoded.append(.text(text))
            case .object: decoded.append(.expression(try Expression(json: element, at: partPointer)))
            default:
                throw .wrongType(
                    partPointer, "a template part must be a string or an expression, found \(element.kindDescription)")
            }
        }
        parts = decoded
        fallback = try reader.optionalString("fallback")
    }

    /// The wire JSON.
    public var json: JSONValue {
        var object = JSONObject()
        object["template"] = .array(
            parts.map { part in
                switch part {
                case .text(let text): return .string(text)
                case .expression(let expression): return expression.json
                }
            })
        if let fallback { object["fallback"] = .string(fallback) }
        return .object(object)
    }

    /// What the template's expressions read, in order of appearance.
    public var references: [ValueReference] {
        parts.flatMap { part -> [ValueReference] in
            if case .expression(let expression) = part { return expression.references }
            return []
        }
    }
}

extension Node {
    /// The template standing in property `name`, or `nil` when the property is a plain string,
    /// absent, or not a well-formed template.
    public func template(_ name: String) -> Template? {
        guard let value = properties[name], Template.isTemplate(value) else { return nil }
        return try? Template(json: value, at: .root)
    }

    /// The text properties of this node that hold a template, with their templates, in
    /// ``Template/textProperties`` order.
    public var templates: [(property: String, template: Template)] {
        Template.textProperties.compactMap { name in template(name).map { (name, $0) } }
    }
}
