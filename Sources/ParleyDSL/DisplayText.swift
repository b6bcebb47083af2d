public import ParleyCore

/// A text a person reads (a `text`, `label`, `placeholder`, `title`, `subtitle` or `alt`):
/// plain, or a template that recalls answers and computed values by string interpolation
/// (docs/expressions.md):
///
///     Text("Thanks, \(Field("firstName")) — your premium is \(Computed("premium"))")
///
/// builds `{"template": ["Thanks, ", {"field": "firstName"}, " — your premium is ",
/// {"computed": "premium"}]}`; a text that interpolates only strings stays a plain string.
/// Only ``Field``, ``Computed`` references, ``Formula``s and strings interpolate, and only
/// properties a person reads take a `DisplayText`, so a template elsewhere does not compile.
/// `DisplayText("…", fallback: "…")` adds the text served to cores without the `template`
/// capability.
public struct DisplayText: Sendable, ExpressibleByStringInterpolation {
    /// The parts, adjacent text merged, empty text dropped.
    public private(set) var parts: [Template.Part]
    /// Served instead to cores without templates.
    public private(set) var fallback: String?

    /// Plain text.
    public init(stringLiteral text: String) {
        parts = text.isEmpty ? [] : [.text(text)]
    }

    /// Text with interpolated values.
    public init(stringInterpolation: Interpolation) {
        parts = stringInterpolation.parts
    }

    /// A text from a string built at run time (no template).
    public init(_ text: String) { self.init(stringLiteral: text) }

    /// `text` with the `fallback` older cores show instead of the template.
    public init(_ text: DisplayText, fallback: String) {
        parts = text.parts
        self.fallback = fallback
    }

    /// Whether any part recalls a value (the text is a template).
    public var isTemplate: Bool {
        parts.contains { if case .expression = $0 { return true } else { return false } }
    }

    /// The wire value: a string, or `{"template": […], "fallback"?: …}`.
    public var json: JSONValue {
        guard isTemplate else {
            return .string(
                parts.map { part -> String in
                    if case .text(let text) = part { return text }
                    return ""
                }.joined())
        }
        return Template(parts: parts, fallback: fallback).json
    }

    /// Collects a template's parts from a string literal with interpolations.
    public struct Interpolation: StringInterpolationProtocol {
        var parts: [Template.Part] = []

        /// Reserves nothing: templates are short.
        public init(literalCapacity: Int, interpolationCount: Int) {}

        /// Literal text.
        public mutating func appendLiteral(_ literal: String) { appendText(literal) }

        /// A string known when the flow is built: plain text, never a value read at run time.
        public mutating func appendInterpolation(_ text: String) { appendText(text) }

        /// `{"field": id}`: the answer (a hidden field reads as empty).
        public mutating func appendInterpolation(_ field: Field) { parts.append(.expression(.field(field.name))) }

        /// `{"computed": name}`.
        public mutating func appendInterpolation(_ computed: Computed<ComputedRoles.Reference>) {
            parts.append(.expression(.computed(computed.name)))
        }

        /// Any formula, e.g. `\(Formula.round(Computed("premium"), scale: 0))`.
        public mutating func appendInterpolation(_ formula: Formula) { parts.append(.expression(formula.expression)) }

        private mutating func appendText(_ text: String) {
            guard !text.isEmpty else { return }
            if case .text(let previous)? = parts.last {
                parts[parts.count - 1] = .text(previous + text)
            } else {
                parts.append(.text(text))
            }
        }
    }
}

extension DefaultStringInterpolation {
    // A plain `String` interpolates anything through its description, so a field written into a
    // property that takes no template (a URL, an option) would silently become text like
    // `Field(name: "x")`. These overloads are more specific than the standard library's, so the
    // compiler picks them and warns (an error under `-warnings-as-errors`, as the project builds).

    /// Refused: only a ``DisplayText`` property (text a person reads) takes a template.
    @available(
        *, deprecated,
        message:
            "a Field interpolated into a String is not a template; only text a person reads (DisplayText) recalls answers"
    )
    public mutating func appendInterpolation(_ field: Field) { appendLiteral(field.name) }

    /// Refused: only a ``DisplayText`` property takes a template.
    @available(
        *, deprecated,
        message:
            "a Computed interpolated into a String is not a template; only text a person reads (DisplayText) recalls values"
    )
    public mutating func appendInterpolation<Role>(_ computed: Computed<Role>) { appendLiteral(computed.name) }

    /// Refused: only a ``DisplayText`` property takes a template.
    @available(
        *, deprecated,
        message:
            "a Formula interpolated into a String is not a template; only text a person reads (DisplayText) recalls values"
    )
    public mutating func appendInterpolation(_ formula: Formula) { appendLiteral("") }
}
