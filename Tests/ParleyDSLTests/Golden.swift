import ParleyCore

/// Helpers for golden comparisons: canonical JSON text is what the wire carries.
enum Golden {
    /// Canonical JSON text of a model value.
    static func json(_ value: some JSONRepresentable) -> String { CanonicalJSON.string(value.json) }

    /// Canonical JSON text of a raw value.
    static func json(_ value: JSONValue) -> String { CanonicalJSON.string(value) }

    /// A screen's root node, resolved.
    static func root(_ screen: Screen) -> String { json(screen.root) }
}
