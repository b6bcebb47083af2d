public import ParleyCore

/// The JSON Schemas (2020-12) of the wire documents, served at
/// `/schemas/{flow,screen,session,problem,bundle}.json` (DESIGN.md "HTTP API")
/// and built into the binary: each is one self-contained document whose
/// `$defs` are the same definitions `/openapi.json` carries as components.
public enum WireSchemas {
    /// Served name → the definition at the document's root. `screen` is the gated
    /// screen as `GET /v1/screens` serves it; `session` is the snapshot.
    public static let roots: [(name: String, definition: String, title: String)] = [
        ("flow", "Flow", "A parley.flow/1 document"),
        ("screen", "GatedScreen", "A screen as GET /v1/screens serves it, gated for one client core"),
        ("session", "SessionSnapshot", "A session snapshot"),
        ("problem", "Problem", "An application/problem+json document (RFC 9457)"),
        ("bundle", "Bundle", "A parley.bundle/1 document"),
    ]

    /// The document served as `/schemas/<name>.json`, or `nil` for another name.
    public static func document(_ name: String) -> JSONValue? {
        guard let root = roots.first(where: { $0.name == name }) else { return nil }
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema", "title": .string(root.title),
            "$ref": .string("#/$defs/\(root.definition)"),
            "$defs": .object(JSONObject(WireSchemaDefinitions(base: "#/$defs/").all)),
        ]
    }

    /// Canonical bytes per served file name (`flow.json`…), computed once.
    static let files: [String: [UInt8]] = Dictionary(
        uniqueKeysWithValues: roots.compactMap { root in
            document(root.name).map { ("\(root.name).json", CanonicalJSON.encode($0)) }
        })
}
